import { describe, expect, it } from 'vitest';
import { submittedVersionText } from '../texts/index.js';
import {
  compareVersions,
  longVersionFromReported,
  parseCompilerVersion,
  parseVersionNumbers,
  readSubmittedVersion,
  versionAtLeast,
} from './compilerVersion.js';
import { knownSolcRelease } from './solcReleases.js';

describe('parseCompilerVersion', () => {
  it('reads a release with or without the leading v', () => {
    const expected = { version: '0.8.26', commit: '8a97fa7a', long: '0.8.26+commit.8a97fa7a', major: 0, minor: 8, patch: 26 };
    expect(parseCompilerVersion('v0.8.26+commit.8a97fa7a')).toEqual(expected);
    expect(parseCompilerVersion('0.8.26+commit.8a97fa7a')).toEqual(expected);
  });

  it('reads a nightly', () => {
    expect(parseCompilerVersion('v0.8.27-nightly.2024.5.1+commit.a6a2b8b8')).toMatchObject({
      version: '0.8.27',
      nightly: '2024.5.1',
      commit: 'a6a2b8b8',
      long: '0.8.27-nightly.2024.5.1+commit.a6a2b8b8',
    });
  });

  it.each([
    '0.8.26',
    'latest',
    'v0.8.26+commit.8A97FA7A',
    '0.8.26+commit.8a97fa7',
    '0.8.26+commit.8a97fa7a.Emscripten.clang',
    '0.8.26+commit.8a97fa7a/../../etc/passwd',
    '../0.8.26+commit.8a97fa7a',
    '0.8.026+commit.8a97fa7a',
    ' v0.8.26+commit.8a97fa7a\n; rm -rf',
  ])('rejects %j', (text) => {
    expect(parseCompilerVersion(text)).toBeNull();
  });

  it('reads the version a loaded compiler reports', () => {
    expect(longVersionFromReported('0.6.12+commit.27d51765.Emscripten.clang')).toBe('0.6.12+commit.27d51765');
    expect(longVersionFromReported('0.4.11+commit.68ef5810.Emscripten.clang')).toBe('0.4.11+commit.68ef5810');
    expect(longVersionFromReported('garbage')).toBeNull();
  });
});

describe('version numbers', () => {
  it('compare by major, minor and patch, from strings or numbers', () => {
    expect(compareVersions('0.8.9', '0.8.10')).toBeLessThan(0);
    expect(compareVersions('v0.8.26+commit.8a97fa7a', { major: 0, minor: 8, patch: 26 })).toBe(0);
    expect(parseVersionNumbers('0.8.27-nightly.2024.5.1+commit.a6a2b8b8')).toEqual({ major: 0, minor: 8, patch: 27 });
    expect(versionAtLeast({ major: 0, minor: 4, patch: 11 }, '0.4.12')).toBe(false);
    // An unknown version counts as new.
    expect(versionAtLeast(null, '0.4.12')).toBe(true);
  });
});

/** What a submission's version reads as, with a refusal in the words a client gets. */
function readAndWord(text: string, releases: Parameters<typeof readSubmittedVersion>[1]) {
  const read = readSubmittedVersion(text, releases);
  return read.ok ? read : { ok: false, error: submittedVersionText(read.error) };
}

describe('readSubmittedVersion', () => {
  it('takes the long form, with or without v, a space for the +, and a platform suffix', () => {
    for (const text of ['v0.8.28+commit.7893614a', '0.8.28+commit.7893614a', 'v0.8.28 commit.7893614a', 'v0.8.28+commit.7893614a.Linux.gcc']) {
      expect(readAndWord(text, knownSolcRelease)).toEqual({ ok: true, value: { long: 'v0.8.28+commit.7893614a', short: '0.8.28' } });
    }
  });

  it("takes a known release's commit shortened to 7 digits or lengthened (as Blockscout does), and gives its long version", () => {
    const cases: [string, string, string][] = [
      ['v0.8.18+commit.87f61d9', 'v0.8.18+commit.87f61d96', '0.8.18'],
      ['0.8.18+commit.87F61D9', 'v0.8.18+commit.87f61d96', '0.8.18'],
      ['v0.8.24+commit.e11b9ed91234', 'v0.8.24+commit.e11b9ed9', '0.8.24'],
      ['v0.8.24+commit.e11b9ed91234.Linux.gcc', 'v0.8.24+commit.e11b9ed9', '0.8.24'],
      ['v0.8.28 commit.7893614a3c1d', 'v0.8.28+commit.7893614a', '0.8.28'],
    ];
    for (const [text, long, short] of cases) expect(readAndWord(text, knownSolcRelease), text).toEqual({ ok: true, value: { long, short } });
  });

  it("takes a known release named without its commit as that release's one commit, and says it filled it in", () => {
    for (const text of ['v0.8.28', '0.8.28', 'v0.8.28.Linux.gcc']) {
      expect(readAndWord(text, knownSolcRelease), text).toEqual({
        ok: true,
        value: { long: 'v0.8.28+commit.7893614a', short: '0.8.28', commitFilledIn: true },
      });
    }
  });

  it('names the long version of a known release for a wrong, too short or wrongly lengthened commit', () => {
    for (const text of ['v0.8.28+commit.deadbeef', 'v0.8.28+commit.789361', 'v0.8.28+commit.7893615', 'v0.8.28+commit.7893614b1234']) {
      expect(readAndWord(text, knownSolcRelease)).toEqual({
        ok: false,
        error: `Invalid parameter compilerversion: "${text}" is not a solc release; did you mean v0.8.28+commit.7893614a?`,
      });
    }
    expect(readAndWord('v0.8.18+commit.87f61d97', knownSolcRelease)).toEqual({
      ok: false,
      error: 'Invalid parameter compilerversion: "v0.8.18+commit.87f61d97" is not a solc release; did you mean v0.8.18+commit.87f61d96?',
    });
  });

  it('takes any commit of 8 digits or more of a release it does not know (cut to 8), and nothing else', () => {
    expect(readAndWord('v0.9.1+commit.0123abcd', knownSolcRelease)).toEqual({ ok: true, value: { long: 'v0.9.1+commit.0123abcd', short: '0.9.1' } });
    expect(readAndWord('0.9.1+commit.0123abcd4567', knownSolcRelease)).toEqual({ ok: true, value: { long: 'v0.9.1+commit.0123abcd', short: '0.9.1' } });
    expect(readAndWord('latest', knownSolcRelease)).toEqual({
      ok: false,
      error: 'Invalid parameter compilerversion: "latest" is not a solc long version like v0.8.26+commit.8a97fa7a',
    });
    for (const text of ['v0.9.1', 'v0.9.1+commit.0123abc']) {
      expect(readAndWord(text, knownSolcRelease)).toEqual({
        ok: false,
        error: `Invalid parameter compilerversion: "${text}" does not name a commit of solc 0.9.1: send its whole long version, with the 8-digit commit (like v0.8.26+commit.8a97fa7a)`,
      });
    }
  });
});
