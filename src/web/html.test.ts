import { describe, expect, it } from 'vitest';
import { escapeHtml, html, trusted } from './html.js';

describe('escapeHtml', () => {
  it('escapes every character that can end text or an attribute', () => {
    expect(escapeHtml(`<a href="x" title='y'>&\`</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#96;&lt;/a&gt;');
  });

  it('leaves other text alone', () => {
    expect(escapeHtml('pragma solidity ^0.8.0; // ünïcode ✓')).toBe('pragma solidity ^0.8.0; // ünïcode ✓');
  });
});

describe('html', () => {
  it('escapes interpolated text but not nested markup', () => {
    const name = '</script><script>alert(1)</script>';
    const page = html`<p title="${name}">${name}</p>${html`<b>${'&'}</b>`}`;
    expect(page.value).toBe(
      '<p title="&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p><b>&amp;</b>',
    );
  });

  it('joins arrays, prints numbers and drops null, undefined and booleans', () => {
    expect(html`${['<', html`<i>`, 3]}|${null}|${undefined}|${false}|${true}|${10n}`.value).toBe('&lt;<i>3|||||10');
  });

  it('passes constant markup marked as trusted', () => {
    expect(html`${trusted('<br>')}`.value).toBe('<br>');
  });
});
