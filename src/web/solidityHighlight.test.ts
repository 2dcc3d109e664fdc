import { describe, expect, it } from 'vitest';
import { highlightSolidityLines, MAX_HIGHLIGHT_BYTES } from './solidityHighlight.js';

const strip = (markup: string): string =>
  markup
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&amp;/g, '&');

describe('highlightSolidityLines', () => {
  const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
/* a comment
   over </script><img src=x onerror=alert(1)> lines */
contract A {
    string s = "a<b & c";
}`;

  it('gives one line per source line, whose text is the source line exactly', () => {
    const lines = highlightSolidityLines(source);
    expect(lines.map((l) => strip(l.value))).toEqual(source.split('\n'));
  });

  it('marks keywords, comments and strings; a comment over several lines is closed and reopened on each', () => {
    const lines = highlightSolidityLines(source).map((l) => l.value);
    expect(lines[4]).toContain('<span class="token keyword">contract</span>');
    expect(lines[2]).toMatch(/^<span class="token comment">\/\* a comment<\/span>$/);
    expect(lines[3]).toMatch(/^<span class="token comment">.*lines \*\/<\/span>$/);
    expect(lines[5]).toContain('<span class="token string">"a&lt;b &amp; c"</span>');
  });

  it('never lets markup from the source through', () => {
    const all = highlightSolidityLines(source)
      .map((l) => l.value)
      .join('\n');
    expect(all).not.toContain('<script');
    expect(all).not.toContain('<img');
    for (const tag of all.match(/<[^>]*>/g) ?? []) expect(tag).toMatch(/^(<span class="token [a-z -]+">|<\/span>)$/);
  });

  it('shows a very large file as escaped text', () => {
    const big = `contract B {}\n// <b>\n${'x'.repeat(MAX_HIGHLIGHT_BYTES)}`;
    const lines = highlightSolidityLines(big);
    expect(lines[0]!.value).toBe('contract B {}');
    expect(lines[1]!.value).toBe('// &lt;b&gt;');
  });
});
