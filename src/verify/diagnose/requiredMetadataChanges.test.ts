import { describe, expect, it } from 'vitest';
import { requiredMetadataChanges } from './diagnoseFailure.js';
import type { SubmittedSettings } from './settingChanges.js';

const sent = (overrides: Partial<SubmittedSettings> = {}): SubmittedSettings => ({
  compilerVersion: 'v0.8.28+commit.7893614a',
  optimizer: false,
  runs: 200,
  evmVersion: '',
  viaIR: false,
  bytecodeHash: 'ipfs',
  appendCBOR: true,
  contractName: 'C',
  ...overrides,
});

describe('requiredMetadataChanges', () => {
  it('asks for the deployed hash kind when the deployed CBOR carries a hash', () => {
    expect(requiredMetadataChanges(sent({ bytecodeHash: 'none' }), { hashKind: 'ipfs' })).toEqual([{ setting: 'bytecodeHash', from: 'none', to: 'ipfs' }]);
    expect(requiredMetadataChanges(sent(), { hashKind: 'bzzr1' })).toEqual([{ setting: 'bytecodeHash', from: 'ipfs', to: 'bzzr1' }]);
  });

  it('asks for CBOR when the deployed code has it and the submission turned it off', () => {
    expect(requiredMetadataChanges(sent({ appendCBOR: false }), { hashKind: 'ipfs' })).toEqual([{ setting: 'appendCBOR', from: 'false', to: 'true' }]);
    expect(requiredMetadataChanges(sent({ appendCBOR: false }), { hashKind: 'none' })).toEqual([
      { setting: 'appendCBOR', from: 'false', to: 'true' },
      { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
    ]);
  });

  it('requires nothing a partial match accepts as it is (a deployed CBOR without hash, or none at all)', () => {
    expect(requiredMetadataChanges(sent(), { hashKind: 'none' })).toEqual([]);
    expect(requiredMetadataChanges(sent(), { hashKind: 'absent' })).toEqual([]);
    expect(requiredMetadataChanges(sent({ appendCBOR: false }), { hashKind: 'absent' })).toEqual([]);
    expect(requiredMetadataChanges(sent(), { hashKind: 'ipfs' })).toEqual([]);
  });

  it('has no bytecodeHash before 0.6.0 (bzzr0 is the only kind there)', () => {
    expect(requiredMetadataChanges(sent({ compilerVersion: 'v0.5.17+commit.d19bba13' }), { hashKind: 'bzzr0' })).toEqual([]);
    expect(requiredMetadataChanges(sent({ compilerVersion: 'v0.5.17+commit.d19bba13', bytecodeHash: 'ipfs' }), { hashKind: 'ipfs' })).toEqual([]);
  });
});
