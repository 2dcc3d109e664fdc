import { describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployRaw, devnetClients } from '../helpers/chain.js';
import { createKey, startService } from '../helpers/service.js';
import { expectedServedInput, expectedVerification, IN_SCOPE_CASES, loadSourcifyCase, matchKindOf } from '../helpers/sourcifyCases.js';

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('api/sourcifyCases');
const { apiUrl, apiKey } = sharedService();

// Outside the service's scope (compilers from v0.4.11 up, Solidity sources only: docs/matching.md, Compiling): refused at submission, saying why.
const OUT_OF_SCOPE: Array<[string, string]> = [
  ['match_sol_0_1_3', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['match_sol_0_1_6', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['match_sol_0_3_6', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['match_sol_0_4_0', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['match_sol_0_4_7', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['match_sol_0_4_9', 'Invalid parameter compilerversion: compilers older than v0.4.11 are not supported'],
  ['yul', 'Invalid parameter sourceCode: only Solidity sources are verified here: the standard JSON input must have "language": "Solidity" (got "Yul")'],
];

describe('Sourcify verification cases through the API', () => {
  const { publicClient } = devnetClients(ACCOUNT);

  // Each case on a service of its own (a fresh store): several cases deploy the same code, and
  // on a store that verified one of them the others would be copies, verified through it.
  it.each(IN_SCOPE_CASES)("%s: Pass - Verified with Sourcify's verdict (or more, see BEYOND_SOURCIFY)", async (name) => {
    const service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--rate-free', '1000'] });
    try {
      await verifyCase(name, service.apiUrl, await createKey(service.dataDir));
    } finally {
      await service.stop();
    }
  });

  async function verifyCase(name: string, apiUrl: string, apiKey: string): Promise<void> {
    const fixture = loadSourcifyCase(name);
    const { address } = await deployRaw(fixture.onchain.creationBytecode, ACCOUNT);
    // The case is only meaningful if anvil reproduced the deployment Sourcify saw.
    expect(await publicClient.getCode({ address })).toBe(fixture.onchain.deployedBytecode);

    const { submit, status } = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: address,
      sourceCode: JSON.stringify(fixture.input.stdJsonInput),
      codeformat: 'solidity-standard-json-input',
      contractname: fixture.input.contractIdentifier,
      compilerversion: `v${fixture.input.compilerVersion}`,
    });
    expect(submit.status).toBe('1');
    // Clients compare the result; a partial match says so in the message.
    expect(status).toMatchObject({ status: '1', result: 'Pass - Verified' });

    const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(env.status).toBe('1');
    const record = env.result[0] as Record<string, string>;
    const expected = expectedVerification(name, fixture);
    const creation = matchKindOf(expected.creationMatch);
    const runtime = matchKindOf(expected.runtimeMatch);
    expect({ MatchKind: record.MatchKind, CreationMatch: record.CreationMatch, RuntimeMatch: record.RuntimeMatch }).toEqual({
      MatchKind: creation === 'full' || runtime === 'full' ? 'full' : 'partial',
      CreationMatch: creation,
      RuntimeMatch: runtime,
    });
    expect(status?.message).toMatch(record.MatchKind === 'partial' ? /^OK - Partial match: / : /^OK$/);
    expect(record.CompilerVersion).toBe(`v${fixture.input.compilerVersion}`);
    expect(JSON.parse(record.SourceCode!.slice(1, -1))).toEqual(expectedServedInput(name, fixture));

    const args = expected.creationValues?.constructorArguments;
    if (args) expect(record.ConstructorArguments).toBe(args.replace(/^0x/, ''));
  }

  it.each(OUT_OF_SCOPE)('%s is refused at submission: %s', async (name, text) => {
    const fixture = loadSourcifyCase(name);
    const { address } = await deployRaw(fixture.onchain.creationBytecode, ACCOUNT);
    const { submit } = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: address,
      sourceCode: JSON.stringify(fixture.input.stdJsonInput),
      codeformat: 'solidity-standard-json-input',
      contractname: fixture.input.contractIdentifier,
      compilerversion: `v${fixture.input.compilerVersion}`,
    });
    expect(submit).toEqual({ status: '0', message: 'NOTOK', result: text });
  });
});
