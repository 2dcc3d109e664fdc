import { describe, expect, inject, it } from 'vitest';
import type { TransformationValues } from '../../src/verify/index.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet } from '../helpers/api.js';
import { deployRaw, devnetClients } from '../helpers/chain.js';
import { createKey, startService } from '../helpers/service.js';
import { expectedVerification, IN_SCOPE_CASES, loadSourcifyCase, matchKindOf } from '../helpers/sourcifyCases.js';
import { sourcifyErrorWith, sourcifyGet, sourcifyPost, verifyAndWait } from './helpers.js';

/*
 * Sourcify's own verification cases sent to the service's Sourcify API as Sourcify's clients
 * send them (each case's `input` is a v2 verification request as it stands): the job ends with
 * Sourcify's verdict in Sourcify's words, and GET v2/contract serves Sourcify's transformations
 * and storage layouts.
 * The same cases pass through the Etherscan API in test/api/sourcifyCases.test.ts.
 */

const ACCOUNT = deployerAccount('sourcify/sourcifyCases');
const CHAIN_ID = inject('chainId');

const OUT_OF_SCOPE: Array<[string, string]> = [
  ['match_sol_0_1_3', 'compilers older than 0.4.11 are not supported'],
  ['match_sol_0_3_6', 'compilers older than 0.4.11 are not supported'],
  ['match_sol_0_4_9', 'compilers older than 0.4.11 are not supported'],
  ['yul', 'Only Solidity sources are verified here'],
];

/** Sourcify writes empty value maps ({cborAuxdata: {}}) where nothing was recorded. */
function normalise(values: TransformationValues | null | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values ?? {}).filter(([, v]) => typeof v === 'string' || Object.keys(v as object).length > 0));
}

describe("Sourcify's verification cases through the Sourcify API", () => {
  const { publicClient } = devnetClients(ACCOUNT);

  // A service of its own per case (a fresh store), as through the Etherscan API: several cases
  // deploy the same code, and a store that verified one would verify the others as copies.
  it.each(IN_SCOPE_CASES)("%s: the job ends with Sourcify's verdict, and the contract has Sourcify's transformations and storage layouts", async (name) => {
    const service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--sourcify-rate', '1000'] });
    try {
      const fixture = loadSourcifyCase(name);
      const { address } = await deployRaw(fixture.onchain.creationBytecode, ACCOUNT);
      expect(await publicClient.getCode({ address })).toBe(fixture.onchain.deployedBytecode);

      const { submit, job } = await verifyAndWait(service.baseUrl, CHAIN_ID, address, fixture.input);
      expect(submit.status, JSON.stringify(submit.body)).toBe(202);
      const expected = expectedVerification(name, fixture);
      const overall = expected.creationMatch === 'exact_match' || expected.runtimeMatch === 'exact_match' ? 'exact_match' : 'match';
      expect(job!.body.contract, JSON.stringify(job!.body)).toMatchObject({
        match: overall,
        creationMatch: expected.creationMatch,
        runtimeMatch: expected.runtimeMatch,
      });

      const parts =
        'creationBytecode.transformations,creationBytecode.transformationValues,runtimeBytecode.transformations,runtimeBytecode.transformationValues,storageLayout,transientStorageLayout';
      const contract = await sourcifyGet(service.baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=${parts}`);
      expect(contract.status).toBe(200);
      expect(contract.body.runtimeBytecode.transformations).toEqual(expected.runtimeTransformations ?? []);
      expect(normalise(contract.body.runtimeBytecode.transformationValues)).toEqual(normalise(expected.runtimeValues));
      expect(contract.body.creationBytecode.transformations ?? []).toEqual(expected.creationTransformations ?? []);
      expect(normalise(contract.body.creationBytecode.transformationValues)).toEqual(normalise(expected.creationValues));
      // The storage layouts Sourcify keeps for the case, as solc gave them (null before 0.8.27 for the transient one).
      expect(contract.body.storageLayout).toEqual(fixture.output.compilationArtifacts.storageLayout);
      expect(contract.body.transientStorageLayout).toEqual(fixture.output.compilationArtifacts.transientStorageLayout);

      // The Etherscan API serves the same record.
      const key = await createKey(service.dataDir);
      const record = (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0];
      expect({ CreationMatch: record.CreationMatch, RuntimeMatch: record.RuntimeMatch }).toEqual({
        CreationMatch: matchKindOf(expected.creationMatch),
        RuntimeMatch: matchKindOf(expected.runtimeMatch),
      });
    } finally {
      await service.stop();
    }
  });

  it.each(OUT_OF_SCOPE)('%s is refused at submission with invalid_parameter: %s', async (name, text) => {
    const fixture = loadSourcifyCase(name);
    const { address } = await deployRaw(fixture.onchain.creationBytecode, ACCOUNT);
    const base = inject('baseUrl');
    const answer = await sourcifyPost(base, `v2/verify/${CHAIN_ID}/${address}`, fixture.input);
    expect(answer).toEqual({ status: 400, body: sourcifyErrorWith('invalid_parameter', text) });
  });
});
