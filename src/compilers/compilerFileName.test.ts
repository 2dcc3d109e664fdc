import { describe, expect, it } from 'vitest';
import { parseCompilerVersion } from '../core/compilerVersion.js';
import { compilerFileName } from './compilerFileName.js';

describe('compilerFileName', () => {
  it('names files as solc-bin does', () => {
    const v = parseCompilerVersion('v0.8.26+commit.8a97fa7a')!;
    expect(compilerFileName('soljson', v)).toBe('soljson-v0.8.26+commit.8a97fa7a.js');
    expect(compilerFileName('native', v)).toBe('solc-linux-amd64-v0.8.26+commit.8a97fa7a');
  });
});
