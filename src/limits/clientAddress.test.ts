import { describe, expect, it } from 'vitest';
import { clientKey, retryAfterSeconds } from './clientAddress.js';

describe('clientKey: who a keyless limit counts', () => {
  it('an IPv4 address is itself', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('10.0.0.1')).not.toBe(clientKey('10.0.0.2'));
  });

  it('every address of one IPv6 /64 is one client, whatever its spelling; another /64 is another client', () => {
    const same = [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:abcd',
      '2001:db8:1:2:a:b:c:d%eth0',
      '2001:db8:1:2::9.8.7.6',
    ];
    for (const address of same) expect(clientKey(address), address).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1')).toBe('fe80:0:0:0::/64');
    expect(clientKey('2001:db8::')).toBe('2001:db8:0:0::/64');
  });

  it('an IPv4-mapped IPv6 address counts as its IPv4 address, dotted or in hex', () => {
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('::FFFF:cb00:7107')).toBe('203.0.113.7');
    expect(clientKey('0:0:0:0:0:ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('text that is no address is itself, cut to 64 characters', () => {
    expect(clientKey('<script>')).toBe('<script>');
    expect(clientKey('x'.repeat(1000))).toBe('x'.repeat(64));
    expect(clientKey('1:2:3:4:5:6:7:8:9')).toBe('1:2:3:4:5:6:7:8:9');
    expect(clientKey('')).toBe('');
  });
});

describe('retryAfterSeconds', () => {
  it('rounds a wait up to whole seconds, at least one', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1000)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(86_400_000)).toBe(86_400);
  });
});
