/**
 * Vyper matching without a chain or a compiler: Sourcify's recorded cases give the compiled and
 * the on-chain codes, and the verdict and transformations Sourcify stores for them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../core/types.js';
import { parseVyperVersion } from '../../core/vyperVersion.js';
import type { ContractCreation } from '../ports.js';
import { matchVyperContract } from './matchVyper.js';

const CASES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'test', 'fixtures', 'vyper-cases', 'sourcify-server');

interface RecordedCase {
  onchain: { creationBytecode: Hex; deployedBytecode: Hex };
  input: { compilerVersion: string };
  output: { creationBytecode: Hex; deployedBytecode: Hex; compilationArtifacts: { abi: unknown[] } };
  verification: {
    creationMatch: string;
    runtimeMatch: string;
    creationTransformations: unknown[];
    runtimeTransformations: unknown[];
    creationValues: unknown;
    runtimeValues: unknown;
  };
}

const read = (file: string) => JSON.parse(readFileSync(join(CASES, file), 'utf8')) as RecordedCase;
const creationOf = (code: Hex): ContractCreation => ({
  creationCode: code,
  transactionHash: `0x${'11'.repeat(32)}`,
  blockNumber: 1n,
  creator: `0x${'22'.repeat(20)}` as Address,
  byFactory: false,
});
const LEVEL: Record<string, string> = { exact_match: 'full', match: 'partial' };

function match(c: RecordedCase, onchain: { creation?: Hex | null; runtime?: Hex } = {}) {
  return matchVyperContract({
    compiled: { abi: c.output.compilationArtifacts.abi, creation: { code: c.output.creationBytecode }, runtime: { code: c.output.deployedBytecode } },
    version: parseVyperVersion(c.input.compilerVersion)!,
    runtimeCode: onchain.runtime ?? c.onchain.deployedBytecode,
    creation: onchain.creation === null ? null : creationOf(onchain.creation ?? c.onchain.creationBytecode),
  });
}

describe("matching Sourcify's recorded Vyper cases", () => {
  it.each(readdirSync(CASES).filter((f) => f.endsWith('.json')))(
    '%s: the same transformations, and a full match where the integrity hash proves it',
    (file) => {
      const c = read(file);
      const { runtime, creation, integrity } = match(c);
      expect(creation?.kind).toBe(LEVEL[c.verification.creationMatch]);
      // From 0.4.1 an init code that matches with its integrity hash proves the runtime code too.
      expect(runtime?.kind).toBe(creation?.kind === 'full' ? 'full' : LEVEL[c.verification.runtimeMatch]);
      expect(creation?.transformations).toEqual(c.verification.creationTransformations);
      expect(runtime?.transformations).toEqual(c.verification.runtimeTransformations);
      expect(creation?.values).toEqual(c.verification.creationValues);
      expect(runtime?.values).toEqual(c.verification.runtimeValues);
      if (creation?.kind === 'full') expect(integrity.onchain).toBe(integrity.compiled);
    },
  );

  it('0.4.1: the integrity hashes of a changed comment differ, and the deployed one is read from the replaced auxdata', () => {
    const { integrity } = match(read('auxdata-0.4.1-different-integrity.json'));
    expect(integrity.compiled).toMatch(/^f3e298d0/);
    expect(integrity.onchain).toMatch(/^05b754c5/);
  });

  it('auxdata replaced by bytes that are no auxdata is no match', () => {
    const c = read('auxdata-0.4.1.json');
    const code = c.onchain.creationBytecode;
    // The integrity hash's CBOR header (5820: 32 bytes) broken: not Vyper's auxdata any more.
    const broken = code.replace('855820', '855920') as Hex;
    expect(broken).not.toBe(code);
    expect(match(c, { creation: broken }).creation).toBeNull();
  });

  it('immutables must be exactly as many bytes as the init code says', () => {
    const c = read('constructor_args_immutables.json');
    expect(match(c).runtime?.values.immutables?.['0']).toHaveLength(2 + 96 * 2);
    expect(match(c, { runtime: `${c.onchain.deployedBytecode}00` as Hex }).runtime).toBeNull();
    expect(match(c, { runtime: c.onchain.deployedBytecode.slice(0, -2) as Hex }).runtime).toBeNull();
  });

  it('bytes after the init code must be one canonical encoding of the constructor arguments', () => {
    const c = read('constructor_args_immutables.json');
    expect(match(c, { creation: `${c.onchain.creationBytecode}00` as Hex }).creation).toBeNull();
    expect(match(c).creation?.constructorArguments).toBe('0000000000000000000000000000000000000000000000000000000000000005');
  });

  it('without the creation, a Vyper runtime code is a partial match at most', () => {
    const { runtime, creation } = match(read('auxdata-0.4.1.json'), { creation: null });
    expect(runtime?.kind).toBe('partial');
    expect(creation).toBeNull();
  });
});
