import { describe, expect, it } from 'vitest';
import { fieldFromBodyPrefix } from './requestBody.js';

describe('fieldFromBodyPrefix (what the large-body gate reads)', () => {
  it('reads complete form fields only, in any letter case, decoded', () => {
    expect(fieldFromBodyPrefix('module=contract&apiKey=AB%2BC&sourceCode=aaaa', 'apikey')).toBe('AB+C');
    // The last field may be cut off by the prefix: it is not trusted.
    expect(fieldFromBodyPrefix('module=contract&apikey=ABC', 'apikey')).toBeNull();
    expect(fieldFromBodyPrefix('sourceCode=aaa', 'apikey')).toBeNull();
  });

  it('reads a JSON string member', () => {
    expect(fieldFromBodyPrefix('{"module":"contract","APIKEY":"XYZ","sourceCode":"', 'apikey')).toBe('XYZ');
    expect(fieldFromBodyPrefix('{"module":"contract","sourceCode":"', 'apikey')).toBeNull();
  });
});
