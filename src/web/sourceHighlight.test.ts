import { describe, expect, it } from 'vitest';
import { highlightSolidityLines, languageOfPath, MAX_HIGHLIGHT_BYTES } from './sourceHighlight.js';

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

describe('Vyper', () => {
  const source = `# pragma version ~=0.4.0
"""
@title A box </script><img src=x onerror=alert(1)>
"""
owner: public(immutable(address))
balances: HashMap[address, uint256]

@deploy
def __init__():
    owner = msg.sender

@external
@view
def get(who: address) -> uint256:
    return self.balances[who]  # "a<b & c"
`;

  it('is chosen by the file name', () => {
    expect(languageOfPath('src/Box.vy')).toBe('vyper');
    expect(languageOfPath('interfaces/IBox.vyi')).toBe('vyper');
    expect(languageOfPath('src/Box.sol')).toBe('solidity');
  });

  it('gives the source line for line, escaped, with decorators, keywords, types, comments and docstrings marked', () => {
    const lines = highlightSolidityLines(source, 'vyper').map((l) => l.value);
    expect(lines.map(strip)).toEqual(source.split('\n'));
    expect(lines.join('\n')).not.toContain('<script>');
    expect(lines[0]).toContain('<span class="token comment"># pragma version ~=0.4.0</span>');
    expect(lines[2]).toMatch(/^<span class="token [a-z -]*string[a-z -]*">@title A box &lt;\/script>/);
    expect(lines[5]).toContain('<span class="token builtin">HashMap</span>');
    expect(lines[5]).toContain('<span class="token builtin">uint256</span>');
    expect(lines[7]).toContain('<span class="token decorator function">@deploy</span>');
    expect(lines[8]).toContain('<span class="token keyword">def</span>');
    expect(lines[14]).toContain('<span class="token comment"># "a&lt;b &amp; c"</span>');
  });
});
