import { describe, expect, it } from 'vitest';
import { highlightSolidityLines } from '../sourceHighlight.js';
import { LINE_MAX_CHARS, PAGE_LINES, prepareSources, prepareSourcesNow, sourceView } from './sourceView.js';

const lineIds = (page: string): number[] => [...page.matchAll(/<span class="line" id="f1-L(\d+)">/g)].map((m) => Number(m[1]));

describe('the source view of a large file: a part at a time', () => {
  const blank = { path: 'Blank.sol', content: `contract Blank {}\n${'\n'.repeat(255_000)}` };

  it('255,000 blank lines: the first part, its line numbers and links to the next', () => {
    const page = sourceView('0xabc', prepareSourcesNow([blank], null, null)).value;
    expect(lineIds(page)).toEqual(Array.from({ length: PAGE_LINES }, (_, i) => i + 1));
    expect(page).toContain('File 1 of 1 · 255001 lines (1–8000 shown)');
    expect(page).toContain('<a href="?file=1&amp;from=8001#f1-L8001">lines 8001–16000 ›</a>');
    expect(page).not.toContain('‹ lines');
    expect(page.length).toBeLessThan(2_000_000);
  });

  it('a part from a line on, and past the end the last part', () => {
    const middle = sourceView('0xabc', prepareSourcesNow([blank], 1, 250_000)).value;
    expect(lineIds(middle)).toEqual(Array.from({ length: 5002 }, (_, i) => 250_000 + i));
    expect(middle).toContain('<a href="?file=1&amp;from=242000#f1-L242000">‹ lines 242000–249999</a> · lines 250000–255001 of 255001');
    const past = sourceView('0xabc', prepareSourcesNow([blank], 1, 999_999_999)).value;
    expect(lineIds(past)).toEqual(Array.from({ length: PAGE_LINES }, (_, i) => 255_001 - PAGE_LINES + 1 + i));
  });

  it('a part is bounded in bytes too, and a line too long to read is cut', () => {
    const long = {
      path: 'Long.sol',
      content: `contract Long {}\n// ${'x'.repeat(LINE_MAX_CHARS * 3)}\n${'// a comment line long enough to fill a part by its bytes first\n'.repeat(40_000)}`,
    };
    const page = sourceView('0xabc', prepareSourcesNow([long], null, null)).value;
    expect(page).toContain(`… ${LINE_MAX_CHARS * 3 + 3 - LINE_MAX_CHARS} more characters: download the file for the whole line`);
    expect(page).not.toContain('x'.repeat(LINE_MAX_CHARS + 1));
    const shown = lineIds(page);
    expect(shown[0]).toBe(1);
    expect(shown.length).toBeLessThan(PAGE_LINES);
    expect(page.length).toBeLessThan(2_000_000);
  });

  it('highlighted a slice at a time, a file reads as highlighted whole: comments across slices, /* in strings and line comments', () => {
    const parts: string[] = ['// SPDX-License-Identifier: MIT', 'pragma solidity ^0.8.0;', 'contract Wide {'];
    for (let i = 0; i < 2000; i++) {
      if (i === 1000)
        parts.push(
          '    /** A comment longer than a slice:',
          ...Array.from({ length: 1200 }, (_, k) => `     * line ${k} of it, "quoted" // and not code`),
          '     */',
        );
      if (i % 997 === 0) parts.push('    /* a comment', `       over lines */ uint256 public x${i} = 1;`);
      else if (i % 499 === 0) parts.push(`    string s${i} = "not /* a comment"; // nor /* this`);
      else parts.push(`    function f${i}(uint256 a) external pure returns (uint256) { return a * ${i}; }`);
    }
    parts.push('}', '');
    const content = parts.join('\n');
    // Highlighted (at most 256 KB), all on the page, and many slices long.
    expect(content.length).toBeLessThan(256 * 1024);
    expect(content.length).toBeGreaterThan(128 * 1024);
    const whole = highlightSolidityLines(content);
    whole.pop();
    const page = sourceView('0xabc', prepareSourcesNow([{ path: 'Wide.sol', content }], null, null)).value;
    const shown = [...page.matchAll(/aria-label="line \d+"><\/a>(.*?)\n?<\/span><span class="line"|aria-label="line \d+"><\/a>(.*?)\n<\/span><\/code>/gs)].map(
      (m) => m[1] ?? m[2],
    );
    expect(shown.length).toBe(whole.length);
    expect(shown).toEqual(whole.map((h) => h.value));
  });

  it('prepareSources gives way to other work between slices, and prepares what prepareSourcesNow does', async () => {
    const order: string[] = [];
    const preparing = prepareSources([blank], null, 100_000).then((prepared) => {
      order.push('prepared');
      return prepared;
    });
    setImmediate(() => order.push('other work'));
    const prepared = await preparing;
    expect(order).toEqual(['other work', 'prepared']);
    expect(prepared).toEqual(prepareSourcesNow([blank], null, 100_000));
  });
});
