import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv.js';

describe('csv', () => {
  it('quotes every field and doubles quotes', () => {
    expect(csvRow(['a', 'b,c', 'say "hi"', 'two\nlines', 7])).toBe('"a","b,c","say ""hi""","two\nlines","7"\r\n');
  });

  it('defuses fields a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+1')).toBe(`"'+1"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('@SUM(A1)')).toBe(`"'@SUM(A1)"`);
    expect(csvField('\t=1')).toBe(`"'\t=1"`);
  });

  it('leaves ordinary values alone', () => {
    expect(csvField('0xabc')).toBe('"0xabc"');
    expect(csvField('v0.8.28+commit.7893614a')).toBe('"v0.8.28+commit.7893614a"');
  });
});
