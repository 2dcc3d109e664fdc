import { describe, expect, it } from 'vitest';
import { compilerFileName, longVersionFromReported, parseCompilerVersion } from './compilerVersion.js';

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

  it('names files as solc-bin does', () => {
    const v = parseCompilerVersion('v0.8.26+commit.8a97fa7a')!;
    expect(compilerFileName('soljson', v)).toBe('soljson-v0.8.26+commit.8a97fa7a.js');
    expect(compilerFileName('native', v)).toBe('solc-linux-amd64-v0.8.26+commit.8a97fa7a');
  });

  it('reads the version a loaded compiler reports', () => {
    expect(longVersionFromReported('0.6.12+commit.27d51765.Emscripten.clang')).toBe('0.6.12+commit.27d51765');
    expect(longVersionFromReported('0.4.11+commit.68ef5810.Emscripten.clang')).toBe('0.4.11+commit.68ef5810');
    expect(longVersionFromReported('garbage')).toBeNull();
  });
});
