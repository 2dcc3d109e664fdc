import { encodeAbiParameters, getAddress } from 'viem';
import { describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, verifyAndWait as etherscanVerifyAndWait, sharedService } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { startService } from '../helpers/service.js';
import { sourcifyErrorWith, sourcifyGet, sourcifyPost, verifyAndWait, waitForJob } from './helpers.js';

/*
 * Sourcify's v2 API at /sourcify: verification jobs, their status, contract lookups and the
 * list, in Sourcify's shapes, from the one store the Etherscan API (/api) serves too.
 */

const ACCOUNT = deployerAccount('sourcify/sourcifyApi');
const { apiUrl, baseUrl, apiKey } = sharedService();
const CHAIN_ID = inject('chainId');
const FILE = 'contracts/Vault.sol';
const IDENTIFIER = `${FILE}:Vault`;

/** A contract of its own per test (its edition): no test's contract is a copy of another's. */
function vaultSource(edition: number): string {
  return `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Vault {
    uint256 public constant EDITION = ${edition};
    address public immutable owner;
    string public label;

    constructor(string memory _label) {
        owner = msg.sender;
        label = _label;
    }

    function relabel(string calldata _label) external {
        label = _label;
    }
}
`;
}

const edition = (n: number) => Date.now() * 10 + n;

async function buildVault(n: number, runs = 200): Promise<Built> {
  return build('0.8.28', standardInput({ [FILE]: vaultSource(n) }, { optimizer: true, runs }), FILE, 'Vault');
}

const encodeLabel = (label: string) => encodeAbiParameters([{ type: 'string' }], [label]);

async function deployVault(built: Built, label: string): Promise<string> {
  return (await deployContract(built.abi, built.bytecode, [label], ACCOUNT)).address.toLowerCase();
}

const request = (built: Built, compilerVersion = built.compilerVersion.replace(/^v/, '')) => ({
  stdJsonInput: built.input,
  compilerVersion,
  contractIdentifier: IDENTIFIER,
});

describe("Sourcify's v2 API", () => {
  const { publicClient } = devnetClients(ACCOUNT);

  it('verifies a contract: 202 with an id, a job that completes with exact matches, the contract with its sources, ABI and transformations', async () => {
    const built = await buildVault(edition(1));
    const address = await deployVault(built, 'first');

    // Not verified: 404 with null matches (hardhat-verify reads that as "not verified").
    const before = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}`);
    expect(before).toEqual({
      status: 404,
      body: { match: null, creationMatch: null, runtimeMatch: null, chainId: String(CHAIN_ID), address: getAddress(address) },
    });

    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, getAddress(address), request(built));
    expect(submit.status).toBe(202);
    expect(submit.body).toEqual({ verificationId: expect.stringMatching(/^[a-z0-9]{50}$/) });
    expect(job!.status).toBe(200);
    expect(job!.body).toEqual({
      isJobCompleted: true,
      verificationId: submit.body.verificationId,
      jobStartTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      jobFinishTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      compilationTime: expect.stringMatching(/^\d+$/),
      contract: {
        match: 'exact_match',
        creationMatch: 'exact_match',
        runtimeMatch: 'exact_match',
        chainId: String(CHAIN_ID),
        address: getAddress(address),
        verifiedAt: expect.any(String),
        matchId: expect.any(String),
      },
    });

    const minimal = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}`);
    expect(minimal.status).toBe(200);
    expect(minimal.body).toEqual(job!.body.contract);

    const all = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=all`);
    expect(all.status).toBe(200);
    const c = all.body;
    expect(c.abi).toEqual(built.abi);
    expect(c.sources).toEqual({ [FILE]: { content: built.input.sources[FILE]!.content } });
    expect(c.compilation).toMatchObject({
      language: 'Solidity',
      compiler: 'solc',
      compilerVersion: built.compilerVersion.slice(1),
      name: 'Vault',
      fullyQualifiedName: IDENTIFIER,
    });
    expect(c.compilation.compilerSettings.optimizer).toEqual({ enabled: true, runs: 200 });
    expect(c.stdJsonInput.sources).toEqual(c.sources);
    expect(c.metadata.compiler.version).toBe(built.compilerVersion.slice(1));
    const onchain = await publicClient.getCode({ address: address as `0x${string}` });
    expect(c.runtimeBytecode.onchainBytecode).toBe(onchain);
    expect(c.creationBytecode.onchainBytecode).toBe(`${built.bytecode}${encodeLabel('first').slice(2)}`);
    expect(c.creationBytecode.transformations).toContainEqual(expect.objectContaining({ type: 'insert', reason: 'constructorArguments' }));
    expect(c.creationBytecode.transformationValues.constructorArguments).toBe(encodeLabel('first'));
    expect(c.runtimeBytecode.transformations).toContainEqual(expect.objectContaining({ type: 'replace', reason: 'immutable' }));
    expect(Object.values(c.runtimeBytecode.transformationValues.immutables)).toEqual([
      `0x${'0'.repeat(24)}${devnetClients(ACCOUNT).account.slice(2).toLowerCase()}`,
    ]);
    expect(c.deployment.deployer).toBe(getAddress(devnetClients(ACCOUNT).account));
    expect(c.signatures.function.map((f: { signature: string }) => f.signature).sort()).toEqual(['EDITION()', 'label()', 'owner()', 'relabel(string)']);
    expect(c.signatures.function.find((f: { signature: string }) => f.signature === 'relabel(string)').signatureHash4).toMatch(/^0x[0-9a-f]{8}$/);
    expect(c.proxyResolution).toEqual({ isProxy: false, proxyType: null, implementations: [] });

    // fields picks, omit leaves out.
    const some = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=abi,compilation.name,deployment.transactionHash`);
    expect(Object.keys(some.body).sort()).toEqual([
      'abi',
      'address',
      'chainId',
      'compilation',
      'creationMatch',
      'deployment',
      'match',
      'matchId',
      'runtimeMatch',
      'verifiedAt',
    ]);
    expect(some.body.compilation).toEqual({ name: 'Vault' });
    expect(some.body.deployment).toEqual({ transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    const omitted = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?omit=sources,creationBytecode,runtimeBytecode.onchainBytecode`);
    expect(omitted.body).not.toHaveProperty('sources');
    expect(omitted.body).not.toHaveProperty('creationBytecode');
    expect(omitted.body.runtimeBytecode).not.toHaveProperty('onchainBytecode');
    expect(omitted.body.runtimeBytecode).toHaveProperty('recompiledBytecode');

    // One store: the Etherscan API serves what Sourcify's verified.
    const source = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
    expect(source.result[0]).toMatchObject({ ContractName: 'Vault', MatchKind: 'full', CreationMatch: 'full', RuntimeMatch: 'full', ContractFileName: FILE });
    expect(source.result[0].ConstructorArguments).toBe(encodeLabel('first').slice(2));
    const abi = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address, apikey: apiKey });
    expect(JSON.parse(abi.result)).toEqual(built.abi);

    // Exact in both parts: nothing to improve.
    const again = await sourcifyPost(baseUrl, `v2/verify/${CHAIN_ID}/${address}`, request(built));
    expect(again).toEqual({ status: 409, body: sourcifyErrorWith('already_verified', 'is already verified') });
  });

  it('an Etherscan-verified contract reads back through GET v2/contract, and so does a copy of it (a similar match)', async () => {
    const built = await buildVault(edition(2));
    const address = await deployVault(built, 'etherscan');
    const { status } = await etherscanVerifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, IDENTIFIER));
    expect(status?.result).toBe('Pass - Verified');

    const read = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=abi,sources,creationBytecode,runtimeBytecode`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match', address: getAddress(address) });
    expect(read.body.abi).toEqual(built.abi);
    expect(Object.keys(read.body.sources)).toEqual([FILE]);
    expect(read.body.creationBytecode.transformationValues).toEqual({ constructorArguments: encodeLabel('etherscan') });
    expect(read.body.runtimeBytecode.transformations.map((t: { reason: string }) => t.reason)).toContain('immutable');

    // The same code deployed again is verified on read, through the first.
    const copy = await deployVault(built, 'copy');
    const similar = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${copy}?fields=creationBytecode.transformationValues`);
    expect(similar.status).toBe(200);
    expect(similar.body.match).not.toBeNull();
    expect(similar.body.address).toBe(getAddress(copy));
    const record = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: apiKey });
    expect(record.result[0].SimilarMatch).toBe(address);
  });

  it('a failed job answers 200 with the error (Sourcify code, reason, diagnosis in errorData); then a v-prefixed version passes', async () => {
    const own = edition(3);
    const deployed = await buildVault(own);
    const address = await deployVault(deployed, 'wrong runs');
    const wrong = await buildVault(own, 1);
    const { submit, job } = await verifyAndWait(baseUrl, CHAIN_ID, address, request(wrong));
    expect(submit.status).toBe(202);
    expect(job!.status).toBe(200);
    expect(job!.body).toMatchObject({
      isJobCompleted: true,
      contract: { match: null, creationMatch: null, runtimeMatch: null, chainId: String(CHAIN_ID), address: getAddress(address) },
      error: sourcifyErrorWith('no_match', "The deployed and recompiled bytecode don't match."),
    });
    expect(job!.body.error.message).toContain('200 runs (you sent: 1)');
    expect(job!.body.error.errorData).toMatchObject({ code: 'no_match', reasonCode: 'wrong_runs' });
    // The same job, read again, keeps its errorId.
    expect((await sourcifyGet(baseUrl, `v2/verify/${submit.body.verificationId}`)).body.error.errorId).toBe(job!.body.error.errorId);

    // hardhat-verify 3 sends the version with its `v`.
    const { job: passed } = await verifyAndWait(baseUrl, CHAIN_ID, address, request(deployed, deployed.compilerVersion));
    expect(passed!.body.contract.match).toBe('exact_match');
  });

  it('a second submission while the first job runs is refused with duplicate_verification_request', async () => {
    const built = await buildVault(edition(4));
    const address = await deployVault(built, 'twice');
    const first = await sourcifyPost(baseUrl, `v2/verify/${CHAIN_ID}/${address}`, request(built));
    expect(first.status).toBe(202);
    const second = await sourcifyPost(baseUrl, `v2/verify/${CHAIN_ID}/${address}`, request(built));
    expect(second).toEqual({ status: 429, body: sourcifyErrorWith('duplicate_verification_request', 'is already being verified') });
    expect((await waitForJob(baseUrl, first.body.verificationId)).body.contract.match).toBe('exact_match');
  });

  it('lists verified contracts newest or oldest first, a page at a time after a matchId', async () => {
    const built = await buildVault(edition(5));
    const address = await deployVault(built, 'listed');
    const { job } = await verifyAndWait(baseUrl, CHAIN_ID, address, request(built));
    const newest = await sourcifyGet(baseUrl, `v2/contracts/${CHAIN_ID}?limit=2`);
    expect(newest.status).toBe(200);
    expect(newest.body.results).toHaveLength(2);
    const all = await sourcifyGet(baseUrl, `v2/contracts/${CHAIN_ID}`);
    expect(all.body.results.map((r: { address: string }) => r.address)).toContain(getAddress(address));
    expect(all.body.results).toContainEqual(job!.body.contract);
    const next = await sourcifyGet(baseUrl, `v2/contracts/${CHAIN_ID}?limit=2&afterMatchId=${newest.body.results[1].matchId}`);
    // The contract right after the first page's last one (other files verify meanwhile, at the top of the list).
    const lastOfFirst = all.body.results.findIndex((r: { matchId: string }) => r.matchId === newest.body.results[1].matchId);
    expect(next.body.results[0]).toEqual(all.body.results[lastOfFirst + 1]);
    const oldest = await sourcifyGet(baseUrl, `v2/contracts/${CHAIN_ID}?sort=asc&limit=200`);
    const descending = all.body.results.map((r: { matchId: string }) => r.matchId);
    if (all.body.results.length < 200) expect(oldest.body.results.map((r: { matchId: string }) => r.matchId)).toEqual([...descending].reverse());
    for (const bad of ['limit=0', 'limit=201', 'sort=up', 'afterMatchId=12']) {
      expect(await sourcifyGet(baseUrl, `v2/contracts/${CHAIN_ID}?${bad}`)).toEqual({ status: 400, body: sourcifyErrorWith('invalid_parameter') });
    }
  });

  it('malformed bodies, unknown chains and routes, bad addresses and ids, oversized inputs: Sourcify-shaped errors, never a 500', async () => {
    const built = await buildVault(edition(6));
    const address = await deployVault(built, 'errors');
    const path = `v2/verify/${CHAIN_ID}/${address}`;
    const cases: Array<[Promise<{ status: number; body: unknown }>, number, string, string]> = [
      [sourcifyPost(baseUrl, path, '{"stdJsonInput": '), 400, 'invalid_json', 'not a JSON object'],
      [sourcifyPost(baseUrl, path, '[1,2]'), 400, 'invalid_parameter', 'not a JSON object'],
      [sourcifyPost(baseUrl, path, ''), 400, 'invalid_parameter', 'not a JSON object'],
      [sourcifyPost(baseUrl, path, {}), 400, 'invalid_parameter', 'stdJsonInput'],
      [sourcifyPost(baseUrl, path, { ...request(built), stdJsonInput: 'text' }), 400, 'invalid_parameter', 'stdJsonInput'],
      [sourcifyPost(baseUrl, path, { ...request(built), compilerVersion: 'latest' }), 400, 'invalid_parameter', 'compilerVersion'],
      [
        sourcifyPost(baseUrl, path, { ...request(built), compilerVersion: '0.8.28+commit.00000000' }),
        400,
        'invalid_parameter',
        'did you mean 0.8.28+commit.7893614a',
      ],
      [sourcifyPost(baseUrl, path, { ...request(built), contractIdentifier: 'Vault' }), 400, 'invalid_parameter', 'contractIdentifier'],
      [sourcifyPost(baseUrl, path, { ...request(built), contractIdentifier: 'contracts/Other.sol:Vault' }), 400, 'invalid_parameter', 'contracts/Other.sol'],
      [sourcifyPost(baseUrl, path, { ...request(built), stdJsonInput: { ...built.input, language: 'Yul' } }), 400, 'invalid_parameter', 'Solidity'],
      [sourcifyPost(baseUrl, path, { ...request(built), creationTransactionHash: '0x12' }), 400, 'invalid_parameter', 'creationTransactionHash'],
      [sourcifyPost(baseUrl, path, `${'['.repeat(100_000)}${']'.repeat(100_000)}`), 400, 'invalid_json', 'not a JSON object'],
      [
        sourcifyPost(baseUrl, path, `{"compilerVersion":"0.8.28","stdJsonInput":{"settings":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}}`),
        400,
        'invalid_json',
        'not a JSON object',
      ],
      [sourcifyPost(baseUrl, `v2/verify/1/${address}`, request(built)), 404, 'unsupported_chain', 'chainId 1 '],
      [sourcifyPost(baseUrl, `v2/verify/${CHAIN_ID}/0x1234`, request(built)), 400, 'invalid_parameter', '0x1234'],
      [sourcifyGet(baseUrl, `v2/contract/1/${address}`), 404, 'unsupported_chain', 'chainId 1 '],
      [sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/nothing`), 400, 'invalid_parameter', 'nothing'],
      [sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=bogus`), 400, 'invalid_parameter', 'bogus'],
      [sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=abi&omit=sources`), 400, 'invalid_parameter', 'together'],
      [sourcifyGet(baseUrl, 'v2/contracts/5'), 404, 'unsupported_chain', 'chainId 5 '],
      [sourcifyGet(baseUrl, 'v2/verify/not-a-verification-id'), 400, 'invalid_parameter', 'not-a-verification-id'],
      [sourcifyGet(baseUrl, `v2/verify/${'a'.repeat(50)}`), 404, 'job_not_found', 'a'.repeat(50)],
      [sourcifyGet(baseUrl, 'v2/unknown'), 404, 'route_not_found', '/sourcify/v2/unknown'],
      [sourcifyPost(baseUrl, 'v2/contract/1/2', {}), 404, 'route_not_found', 'POST'],
    ];
    for (const [answer, status, customCode, text] of cases) {
      const got = await answer;
      expect(got, JSON.stringify(got)).toEqual({ status, body: sourcifyErrorWith(customCode, text) });
    }

    // Past --sourcify-body-limit (4 MiB by default): refused without being parsed. (The rest of
    // a body up to four times the limit is read and dropped, so the client reads the answer; past
    // that the connection is closed at once, and a client still sending may not.)
    const huge = JSON.stringify({ ...request(built), padding: 'x'.repeat(9 * 1024 * 1024) });
    const oversized = await sourcifyPost(baseUrl, path, huge);
    expect(oversized).toEqual({ status: 400, body: sourcifyErrorWith('invalid_parameter', 'too large') });

    // After all that, the address verifies as usual.
    const { job } = await verifyAndWait(baseUrl, CHAIN_ID, address, request(built));
    expect(job!.body.contract.match).toBe('exact_match');
  });

  it('verifies from metadata.json and its sources; a metadata naming a file not sent is refused', async () => {
    const built = await buildVault(edition(9));
    const address = await deployVault(built, 'metadata');
    const metadata = JSON.parse(built.output.contracts![FILE]!.Vault!.metadata!);
    const content = built.input.sources[FILE]!.content!;
    const missing = await sourcifyPost(baseUrl, `v2/verify/metadata/${CHAIN_ID}/${address}`, { sources: {}, metadata });
    expect(missing).toEqual({ status: 400, body: sourcifyErrorWith('invalid_parameter', `not sent (by path or keccak256): ${FILE}`) });
    // Found by its keccak256 under another name.
    const submit = await sourcifyPost(baseUrl, `v2/verify/metadata/${CHAIN_ID}/${address}`, { sources: { 'Vault.sol': content }, metadata });
    expect(submit.status, JSON.stringify(submit.body)).toBe(202);
    const job = await waitForJob(baseUrl, submit.body.verificationId);
    expect(job.body.contract).toMatchObject({ match: 'exact_match', creationMatch: 'exact_match', runtimeMatch: 'exact_match' });
    const read = await sourcifyGet(baseUrl, `v2/contract/${CHAIN_ID}/${address}?fields=metadata,sources`);
    expect(read.body.metadata).toEqual(metadata);
    expect(read.body.sources).toEqual({ [FILE]: { content } });
  });

  it('similarity: a copy of a verified contract is verified with nothing submitted; code like none stored is no_similar_match_found', async () => {
    const built = await buildVault(edition(10));
    const original = await deployVault(built, 'original');
    const { job } = await verifyAndWait(baseUrl, CHAIN_ID, original, request(built));
    expect(job!.body.contract.match).toBe('exact_match');
    const copy = await deployVault(built, 'copy of original');
    const similar = await sourcifyPost(baseUrl, `v2/verify/similarity/${CHAIN_ID}/${copy}`, {});
    expect(similar.status, JSON.stringify(similar.body)).toBe(200);
    expect(similar.body).toMatchObject({ address: getAddress(copy), runtimeMatch: expect.stringMatching(/^(exact_match|match)$/) });
    const record = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address: copy, apikey: apiKey });
    expect(record.result[0].SimilarMatch).toBe(original);

    const unique = await deployVault(await buildVault(edition(11)), 'unique');
    expect(await sourcifyPost(baseUrl, `v2/verify/similarity/${CHAIN_ID}/${unique}`, {})).toEqual({
      status: 404,
      body: sourcifyErrorWith('no_similar_match_found', 'No similar verified contracts'),
    });
    expect(await sourcifyPost(baseUrl, `v2/verify/similarity/${CHAIN_ID}/${original}`, {})).toEqual({
      status: 409,
      body: sourcifyErrorWith('already_verified'),
    });
  });

  it('the /docs/api page says how to point forge and Hardhat at /sourcify', async () => {
    const page = await (await fetch(`${baseUrl}/docs/api`)).text();
    expect(page).toContain("Sourcify's API");
    expect(page).toContain(`--verifier sourcify --verifier-url ${baseUrl}/sourcify/`);
    expect(page).toContain(`apiUrl: '${baseUrl}/sourcify'`);
  });

  it('keyless limits: a daily quota of verifications per client address and a request rate, answered with 429 too_many_requests', async () => {
    const service = await startService({ rpcUrl: inject('rpcUrl'), args: ['--sourcify-daily-quota', '1', '--sourcify-rate', '5'] });
    try {
      const first = await buildVault(edition(7));
      const second = await buildVault(edition(8));
      const a = await deployVault(first, 'quota a');
      const b = await deployVault(second, 'quota b');
      expect((await sourcifyPost(service.baseUrl, `v2/verify/${CHAIN_ID}/${a}`, request(first))).status).toBe(202);
      const refused = await sourcifyPost(service.baseUrl, `v2/verify/${CHAIN_ID}/${b}`, request(second));
      expect(refused).toEqual({ status: 429, body: sourcifyErrorWith('too_many_requests', 'Daily limit of 1 verifications reached for this client address') });

      // 20 requests at once from one address, 5 a second allowed: some are refused, none fails otherwise.
      const answers = await Promise.all(Array.from({ length: 20 }, () => sourcifyGet(service.baseUrl, `v2/contract/${CHAIN_ID}/${b}`)));
      expect(answers.filter((r) => r.status === 404)).not.toHaveLength(0);
      const limited = answers.filter((r) => r.status === 429);
      expect(limited).not.toHaveLength(0);
      for (const r of limited) expect(r.body).toEqual(sourcifyErrorWith('too_many_requests', 'too many requests'));
    } finally {
      await service.stop();
    }
  });
});
