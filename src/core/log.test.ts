import { describe, expect, it } from 'vitest';
import { redactUrl } from './log.js';

describe('redactUrl', () => {
  it('hides the value of every apikey parameter, in any letter case or percent-encoding', () => {
    expect(redactUrl('/api?module=contract&apikey=SECRET1&action=getabi')).toBe('/api?module=contract&apikey=[redacted]&action=getabi');
    expect(redactUrl('/api?APIKEY=SECRET2')).toBe('/api?APIKEY=[redacted]');
    expect(redactUrl('/api?apiKey=SECRET3#x')).toBe('/api?apiKey=[redacted]#x');
    expect(redactUrl('/api?%61pikey=SECRET4&apikey=SECRET5')).toBe('/api?%61pikey=[redacted]&apikey=[redacted]');
  });

  it('leaves other parameters, and names that only contain apikey, alone', () => {
    expect(redactUrl('/api?module=contract&address=0xab')).toBe('/api?module=contract&address=0xab');
    expect(redactUrl('/api?myapikey=visible')).toBe('/api?myapikey=visible');
  });
});
