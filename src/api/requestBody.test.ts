import { describe, expect, it } from 'vitest';
import { fieldFromBodyPrefix } from './requestBody.js';

describe('fieldFromBodyPrefix (what the large-body gate reads)', () => {
  it('reads complete form fields only, in any letter case, decoded', () => {
    expect(fieldFromBodyPrefix('module=contract&apiKey=AB%2BC&sourceCode=aaaa', '', 'apikey')).toBe('AB+C');
    // The last field may be cut off by the prefix: it is not trusted.
    expect(fieldFromBodyPrefix('module=contract&apikey=ABC', '', 'apikey')).toBeNull();
    expect(fieldFromBodyPrefix('sourceCode=aaa', 'application/x-www-form-urlencoded', 'apikey')).toBeNull();
  });

  it('reads a JSON string member and a multipart part', () => {
    expect(fieldFromBodyPrefix('{"module":"contract","APIKEY":"XYZ","sourceCode":"', 'application/json', 'apikey')).toBe('XYZ');
    const multipart = '--b\r\nContent-Disposition: form-data; name="apikey"\r\n\r\nKEY123\r\n--b\r\nContent-Disposition: form-data; name="sourceCode"\r\n\r\naaaa';
    expect(fieldFromBodyPrefix(multipart, 'multipart/form-data; boundary=b', 'apikey')).toBe('KEY123');
    expect(fieldFromBodyPrefix(multipart, 'multipart/form-data; boundary=b', 'action')).toBeNull();
  });
});
