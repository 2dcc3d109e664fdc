import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeLibraries, decodeTransformations, noTransformations, type StoredTransformations } from './matchFacts.js';

const FIXTURE = join(import.meta.dirname, '..', '..', 'test', 'fixtures', 'previous-release', 'tables.json');

const WRITTEN: StoredTransformations = {
  applied: {
    runtime: [
      { type: 'replace', reason: 'immutable', offset: 120, id: '6' },
      { type: 'replace', reason: 'cborAuxdata', offset: 510, id: '1' },
    ],
    creation: [{ type: 'insert', reason: 'constructorArguments', offset: 1175 }],
  },
  values: {
    runtime: { immutables: { '6': '0x2a' }, cborAuxdata: { '1': '0xa264' } },
    creation: { constructorArguments: '0x01' },
  },
};

describe("a verified record's match facts", () => {
  it('read back the transformations as a verification writes them', () => {
    expect(decodeTransformations(JSON.stringify(WRITTEN))).toEqual(WRITTEN);
  });

  it('read every record of the previous release as it was written', () => {
    const tables = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { tables: { verified_contracts: { transformations: string; libraries: string }[] } };
    for (const row of tables.tables.verified_contracts) {
      expect(decodeTransformations(row.transformations)).toEqual(JSON.parse(row.transformations));
      expect(decodeLibraries(row.libraries)).toEqual(JSON.parse(row.libraries));
    }
  });

  it('read values kept as one set as the values of both parts', () => {
    const oneSet = { applied: WRITTEN.applied, values: { constructorArguments: '0x01', callProtection: '0x02' } };
    expect(decodeTransformations(JSON.stringify(oneSet))).toEqual({ applied: WRITTEN.applied, values: { runtime: oneSet.values, creation: oneSet.values } });
  });

  it('read the applied lists alone as transformations without values, and anything else as none', () => {
    expect(decodeTransformations(JSON.stringify(WRITTEN.applied))).toEqual({ applied: WRITTEN.applied, values: { runtime: {}, creation: {} } });
    for (const text of ['null', '{}', '[]', '"x"', 'not json']) expect(decodeTransformations(text), text).toEqual(noTransformations());
  });

  it('leave out what is not a transformation, a value or a library', () => {
    const stored = {
      applied: { runtime: [{ type: 'replace', reason: 'immutable', offset: 1, id: '3' }, { type: 'replace', reason: 'immutable' }, 'x'], creation: {} },
      values: { runtime: { immutables: { '3': '0x2a', '4': 5 }, callProtection: 7 }, creation: [] },
    };
    expect(decodeTransformations(JSON.stringify(stored))).toEqual({
      applied: { runtime: [{ type: 'replace', reason: 'immutable', offset: 1, id: '3' }], creation: [] },
      values: { runtime: { immutables: { '3': '0x2a' } }, creation: {} },
    });
    const lib = `0x${'Ab'.repeat(20)}`;
    expect(decodeLibraries(`[{"name":"L","address":"${lib}"},{"name":"M"},{"name":"N","address":"0x01"},3]`)).toEqual([
      { name: 'L', address: lib.toLowerCase() },
    ]);
    expect(decodeLibraries('{}')).toEqual([]);
  });
});
