import { describe, expect, it } from 'vitest';
import { isSupportedVyper, parseVyperVersion, readSubmittedVyperVersion, vyperAuxdataEra, vyperHasImmutables, vyperOptimizeIsMode } from './vyperVersion.js';

describe('Vyper versions as clients spell them', () => {
  it.each([
    ['vyper:0.4.1', '0.4.1', null],
    ['0.4.1b1+commit.039d3692', '0.4.1b1', '039d3692'],
    ['v0.4.1-rc2+commit.305813c9', '0.4.1rc2', '305813c9'],
    ['0.4.0+commit.e9db8d9', '0.4.0', 'e9db8d9'],
    ['v0.1.0-beta.16+commit.5e4a94ad', '0.1.0b16', '5e4a94ad'],
    ['vyper.0.4.0+commit.e9db8d9f.linux', '0.4.0', 'e9db8d9f'],
    ['0.3.10', '0.3.10', null],
  ])('%s is release %s, commit %s', (text, release, commit) => {
    expect(parseVyperVersion(text)).toMatchObject({ release, commit });
  });

  it.each(['', 'vyper', '0.4', 'latest', 'v0.4.1+commit.xyz12345', '0.4.1; rm -rf /', 'vyper:0.4.1/../../x'])('%j is no version', (text) => {
    expect(parseVyperVersion(text)).toBeNull();
  });

  it('fills in a known release commit, takes it shortened or lengthened, refuses another', () => {
    expect(readSubmittedVyperVersion('vyper:0.4.3')).toEqual({ ok: true, value: { long: '0.4.3+commit.bff19ea2', release: '0.4.3', commitFilledIn: true } });
    expect(readSubmittedVyperVersion('0.4.0+commit.e9db8d9')).toEqual({ ok: true, value: { long: '0.4.0+commit.e9db8d9f', release: '0.4.0' } });
    expect(readSubmittedVyperVersion('0.4.0+commit.e9db8d9f00')).toMatchObject({ ok: true });
    expect(readSubmittedVyperVersion('0.4.0+commit.e9db8d90')).toEqual({
      ok: false,
      error: { problem: 'not_a_vyper_release', given: '0.4.0+commit.e9db8d90', longVersion: '0.4.0+commit.e9db8d9f' },
    });
  });

  it('tells a solc version apart, though the numbers overlap', () => {
    const isSolcCommit = (version: string, commit: string) => version === '0.4.26' && commit.startsWith('4563c3fc');
    expect(readSubmittedVyperVersion('v0.4.26+commit.4563c3fc', { isSolcCommit })).toEqual({
      ok: false,
      error: { problem: 'solc_version_for_vyper', given: 'v0.4.26+commit.4563c3fc' },
    });
    expect(readSubmittedVyperVersion('vyper:0.4.0', { isSolcCommit })).toMatchObject({ ok: true, value: { long: '0.4.0+commit.e9db8d9f' } });
  });

  it('needs the commit of a release it does not know, and keeps eight digits of it', () => {
    expect(readSubmittedVyperVersion('vyper:0.9.1')).toEqual({ ok: false, error: { problem: 'vyper_commit_needed', given: 'vyper:0.9.1', release: '0.9.1' } });
    expect(readSubmittedVyperVersion('0.9.1+commit.0123456789ab')).toEqual({ ok: true, value: { long: '0.9.1+commit.01234567', release: '0.9.1' } });
  });
});

describe('what each Vyper release writes', () => {
  it.each([
    ['0.3.3', 'none'],
    ['0.3.4', 'version'],
    ['0.3.5', 'version_length'],
    ['0.3.9', 'version_length'],
    ['0.3.10rc1', 'array'],
    ['0.4.0', 'array'],
    ['0.4.1b1', 'integrity'],
    ['0.4.3', 'integrity'],
  ])('%s: %s', (text, era) => {
    expect(vyperAuxdataEra(parseVyperVersion(text)!)).toBe(era);
  });

  it('immutables from 0.3.7, the optimisation mode from 0.3.10, compilers from 0.2.5', () => {
    const v = (t: string) => parseVyperVersion(t)!;
    expect([vyperHasImmutables(v('0.3.6')), vyperHasImmutables(v('0.3.7'))]).toEqual([false, true]);
    expect([vyperOptimizeIsMode(v('0.3.9')), vyperOptimizeIsMode(v('0.3.10'))]).toEqual([false, true]);
    expect([isSupportedVyper(v('0.2.4')), isSupportedVyper(v('0.2.5')), isSupportedVyper(v('0.4.3'))]).toEqual([false, true, true]);
  });
});
