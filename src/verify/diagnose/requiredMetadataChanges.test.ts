import { describe, expect, it } from 'vitest';
import type { SubmittedSettings } from '../../core/diagnosis.js';
import { requiredMetadataChanges } from './diagnoseFailure.js';
import { revealedMetadataChanges } from './metadataChanges.js';
import { withMetadataChanges } from './settingChanges.js';

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

describe('revealedMetadataChanges', () => {
  it('reads the settings of a deployed code without a hash: bytecodeHash none (0.6.0 on), no CBOR (appendCBOR false, 0.8.18 on)', () => {
    expect(revealedMetadataChanges(sent(), { hashKind: 'none' })).toEqual([{ setting: 'bytecodeHash', from: 'ipfs', to: 'none' }]);
    // solc refuses appendCBOR false with an ipfs or bzzr1 bytecodeHash: without CBOR the hash kind is none.
    expect(revealedMetadataChanges(sent(), { hashKind: 'absent' })).toEqual([
      { setting: 'appendCBOR', from: 'true', to: 'false' },
      { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
    ]);
    expect(revealedMetadataChanges(sent({ bytecodeHash: 'none' }), { hashKind: 'absent' })).toEqual([{ setting: 'appendCBOR', from: 'true', to: 'false' }]);
    expect(revealedMetadataChanges(sent({ compilerVersion: 'v0.8.17+commit.8df45f5f' }), { hashKind: 'absent' })).toEqual([]);
    expect(revealedMetadataChanges(sent({ compilerVersion: 'v0.5.17+commit.d19bba13' }), { hashKind: 'none' })).toEqual([]);
  });

  it('reads the hash kind of a deployed code with a hash, and says nothing the submission already has', () => {
    expect(revealedMetadataChanges(sent({ bytecodeHash: 'none' }), { hashKind: 'bzzr1' })).toEqual([{ setting: 'bytecodeHash', from: 'none', to: 'bzzr1' }]);
    expect(revealedMetadataChanges(sent(), { hashKind: 'ipfs' })).toEqual([]);
    expect(revealedMetadataChanges(sent({ bytecodeHash: 'none' }), { hashKind: 'none' })).toEqual([]);
    expect(revealedMetadataChanges(sent({ appendCBOR: false }), { hashKind: 'absent' })).toEqual([]);
  });

  it('holds every change the deployed code requires', () => {
    for (const hashKind of ['ipfs', 'bzzr0', 'bzzr1', 'none', 'absent'] as const) {
      for (const s of [sent(), sent({ bytecodeHash: 'none' }), sent({ appendCBOR: false }), sent({ bytecodeHash: 'bzzr1', appendCBOR: false })]) {
        const revealed = revealedMetadataChanges(s, { hashKind });
        for (const change of requiredMetadataChanges(s, { hashKind })) expect(revealed).toContainEqual(change);
      }
    }
  });
});

describe('withMetadataChanges', () => {
  it('sets the metadata settings among the changes and keeps the others', () => {
    const settings = { optimizer: { enabled: true, runs: 200 }, metadata: { useLiteralContent: true } };
    expect(
      withMetadataChanges(settings, [
        { setting: 'optimizer', from: 'enabled', to: 'disabled' },
        { setting: 'appendCBOR', from: 'true', to: 'false' },
        { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
      ]),
    ).toEqual({ optimizer: { enabled: true, runs: 200 }, metadata: { useLiteralContent: true, appendCBOR: false, bytecodeHash: 'none' } });
    expect(settings.metadata).toEqual({ useLiteralContent: true });
    expect(withMetadataChanges(settings, [])).toBe(settings);
  });
});
