/**
 * Copies of a verified contract are verified through the bytecode database, without anything
 * submitted and without compiling: on read (getabi, getsourcecode, the page) and on
 * verifysourcecode. Runs on a service of its own without the chain follower, so that only
 * those triggers can verify; once on SQLite and once on PostgreSQL.
 */

import { encodeAbiParameters, parseAbiParameters } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Address, Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, type Envelope, verifyAndWait } from '../helpers/api.js';
import { deployContract, deployRaw, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { describeOnDialects } from '../helpers/dialects.js';
import { createKey, type RunningService, startService } from '../helpers/service.js';
import { createTestDatabase, type TestDatabase } from '../helpers/testDatabase.js';

const ACCOUNT = deployerAccount('bytecodeDatabase/similarMatch');

const tokenSource = (tag: string, comment = '') => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// Copies are verified through the original (${tag}).${comment}
contract Token {
    address public immutable owner;
    uint256 public immutable cap;
    string public name;
    uint256 public constant SCALE = 0x1111111111111111111111111111111111111111111111111111111111111111;
    constructor(string memory n, uint256 c) { owner = msg.sender; cap = c; name = n; }
    function scaled(uint256 x) external pure returns (uint256) { return x * SCALE; }
}
contract TokenFactory {
    function make(string memory n, uint256 c) external returns (address) { return address(new Token(n, c)); }
    function make2(string memory n, uint256 c, bytes32 salt) external returns (address) { return address(new Token{salt: salt}(n, c)); }
}
`;

const librarySource = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// ${tag}
library Maths { function twice(uint256 a) external pure returns (uint256) { return a * 2; } }
contract UsesMaths { function go(uint256 a) external pure returns (uint256) { return Maths.twice(a) + 1; } }
`;
const impostorSource = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
library Maths { function twice(uint256 a) external pure returns (uint256) { return a * 3; } }
`;

describeOnDialects('similar matches on read and on submission', (dialect) => {
  const tag = `${dialect}-${Date.now()}`;
  let tdb: TestDatabase;
  let service: RunningService;
  let key: string;
  let token: Built;
  let factory: Built;
  let original: Address;

  const tokenArgs = (name: string, cap: bigint): string => encodeAbiParameters(parseAbiParameters('string, uint256'), [name, cap]).slice(2);
  const getsourcecode = async (address: string) =>
    (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0] as Record<string, string>;
  const getabi = (address: string): Promise<Envelope> => apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address, apikey: key });

  beforeAll(async () => {
    tdb = await createTestDatabase(dialect);
    const dbArgs = tdb.databaseUrl ? ['--database-url', tdb.databaseUrl] : [];
    key = await createKey(tdb.dataDir, dbArgs);
    const { rpcUrl } = devnetClients(ACCOUNT);
    service = await startService({
      rpcUrl,
      dataDir: tdb.dataDir,
      args: ['--follow-chain', 'false', '--rate-free', '10000', '--key-queued-jobs', '0', ...dbArgs],
    });
    const input = standardInput({ 'Token.sol': tokenSource(tag) }, { optimizer: true });
    token = await build('0.8.28', input, 'Token.sol', 'Token');
    factory = await build('0.8.28', input, 'Token.sol', 'TokenFactory');
    original = (await deployContract(token.abi, token.bytecode, ['original', 100n], ACCOUNT)).address;
    const verified = await verifyAndWait(service.apiUrl, key, standardJsonFields(original, token, 'Token.sol:Token'));
    expect(verified.status?.result).toBe('Pass - Verified');
  }, 300_000);

  afterAll(async () => {
    await service?.stop();
    await tdb?.dispose();
  });

  it('a copy deployed by an account, with other constructor arguments, is verified when read: getabi and getsourcecode', async () => {
    const copy = (await deployContract(token.abi, token.bytecode, ['a copy', 7n], ACCOUNT)).address;
    const asked = Date.now();
    const abi = await getabi(copy);
    const firstRead = Date.now() - asked;
    const again = Date.now();
    await getabi(copy);
    console.log(`similar-match latency, read of an unverified copy to answer (getabi, ${dialect}): ${firstRead} ms; the next read ${Date.now() - again} ms`);
    expect(abi.status).toBe('1');
    expect(JSON.parse(abi.result)).toEqual(token.abi);
    const record = await getsourcecode(copy);
    expect(record).toMatchObject({ ContractName: 'Token', SimilarMatch: original, MatchKind: 'full', ConstructorArguments: tokenArgs('a copy', 7n) });
    expect(record['SourceCode']).toContain(`through the original (${tag})`);
    // The original's own record is untouched.
    expect(await getsourcecode(original)).toMatchObject({ SimilarMatch: '', ConstructorArguments: tokenArgs('original', 100n) });
  });

  it('copies created by a factory with CREATE and CREATE2 (another owner immutable) are verified, the page saying through which address', async () => {
    const { publicClient, walletClient } = devnetClients(ACCOUNT);
    const factoryAddress = (await deployContract(factory.abi, factory.bytecode, [], ACCOUNT)).address;
    const made: Address[] = [];
    for (const [functionName, args] of [
      ['make', ['by CREATE', 5n]],
      ['make2', ['by CREATE2', 6n, `0x${'ab'.repeat(32)}`]],
    ] as const) {
      const { result } = await publicClient.simulateContract({ address: factoryAddress, abi: factory.abi, functionName, args, account: walletClient.account! });
      const hash = await walletClient.writeContract({
        address: factoryAddress,
        abi: factory.abi,
        functionName,
        args,
        account: walletClient.account!,
        chain: walletClient.chain,
      });
      await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
      made.push((result as string).toLowerCase() as Address);
    }
    for (const [i, child] of made.entries()) {
      const record = await getsourcecode(child);
      expect(record).toMatchObject({ ContractName: 'Token', SimilarMatch: original, MatchKind: 'full' });
      expect(record['ConstructorArguments']).toBe(i === 0 ? tokenArgs('by CREATE', 5n) : tokenArgs('by CREATE2', 6n));
    }
    const page = await (await fetch(`${service.baseUrl}/address/${made[1]}`)).text();
    expect(page).toContain('Similar match');
    expect(page).toContain(`/address/${original}`);
  });

  it('verifysourcecode for an unverified copy passes at its first status check, without compiling', async () => {
    const copy = (await deployContract(token.abi, token.bytecode, ['submitted copy', 8n], ACCOUNT)).address;
    const submit = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      ...standardJsonFields(copy, token, 'Token.sol:Token'),
    });
    expect(submit.status).toBe('1');
    const status = await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: submit.result, apikey: key });
    expect(status.result).toBe('Pass - Verified');
    // The owner's own submission replaced the similar match: no SimilarMatch any more.
    expect(await getsourcecode(copy)).toMatchObject({ SimilarMatch: '', MatchKind: 'full', ConstructorArguments: tokenArgs('submitted copy', 8n) });
    const receiptPage = await (await fetch(`${service.baseUrl}/receipt/${submit.result}`)).text();
    expect(receiptPage).toContain('compiled before');
  });

  it('a copy whose metadata differs (other comments) is a partial similar match; an exact submission then makes it full', async () => {
    const edited = await build('0.8.28', standardInput({ 'Token.sol': tokenSource(tag, ' Edited.') }, { optimizer: true }), 'Token.sol', 'Token');
    const copy = (await deployContract(edited.abi, edited.bytecode, ['edited', 9n], ACCOUNT)).address;
    expect(await getsourcecode(copy)).toMatchObject({ SimilarMatch: original, MatchKind: 'partial' });
    const page = await (await fetch(`${service.baseUrl}/address/${copy}`)).text();
    expect(page).toContain('Partial match');
    const exact = await verifyAndWait(service.apiUrl, key, standardJsonFields(copy, edited, 'Token.sol:Token'));
    expect(exact.status?.result).toBe('Pass - Verified');
    const record = await getsourcecode(copy);
    expect(record).toMatchObject({ SimilarMatch: '', MatchKind: 'full' });
    expect(record['SourceCode']).toContain('Edited.');
    // Nothing better than a full match: another submission is refused as Etherscan does.
    const again = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      ...standardJsonFields(copy, edited, 'Token.sol:Token'),
    });
    expect(again.result).toBe('Contract source code already verified');
  });

  it('not copies: one changed constant; a crafted code equal under the fingerprint but not byte for byte', async () => {
    const changed = await build(
      '0.8.28',
      standardInput({ 'Token.sol': tokenSource(tag).replace('x * SCALE', 'x * SCALE + 1') }, { optimizer: true }),
      'Token.sol',
      'Token',
    );
    const constant = (await deployContract(changed.abi, changed.bytecode, ['changed', 1n], ACCOUNT)).address;
    expect((await getabi(constant)).result).toBe('Contract source code not verified');

    // The original's runtime with its 32-byte constant changed: every PUSH32 operand is masked in
    // the fingerprint, so the database finds the original as a candidate; the matcher must refuse.
    const { publicClient } = devnetClients(ACCOUNT);
    const runtime = (await publicClient.getCode({ address: original }))!.slice(2);
    const constantHex = '11'.repeat(32);
    expect(runtime).toContain(`7f${constantHex}`);
    const crafted = runtime.replace(`7f${constantHex}`, `7f${'22'.repeat(32)}`);
    const crafts = (await deployRaw(returnCode(crafted), ACCOUNT)).address;
    expect((await getabi(crafts)).result).toBe('Contract source code not verified');
    expect((await getsourcecode(crafts))['ABI']).toBe('Contract source code not verified');
  });

  it('a copy that calls a library at another address than a verified library of that name is not verified; one that calls a verified copy of it is', async () => {
    const input = standardInput({ 'Maths.sol': librarySource(tag) }, { optimizer: true });
    const lib = await build('0.8.28', input, 'Maths.sol', 'Maths');
    const user = await build('0.8.28', input, 'Maths.sol', 'UsesMaths');
    const link = (bytecode: Hex, at: Address): Hex => bytecode.replace(/__\$[0-9a-f]{34}\$__/g, at.slice(2)) as Hex;
    const library = (await deployContract(lib.abi, lib.bytecode, [], ACCOUNT)).address;
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(library, lib, 'Maths.sol:Maths'))).status?.result).toBe('Pass - Verified');
    const first = (await deployContract(user.abi, link(user.bytecode, library), [], ACCOUNT)).address;
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(first, user, 'Maths.sol:UsesMaths'))).status?.result).toBe('Pass - Verified');

    // Another library named Maths, with other code: the copy linked to it would run other code.
    const impostor = await build('0.8.28', standardInput({ 'Impostor.sol': impostorSource }, { optimizer: true }), 'Impostor.sol', 'Maths');
    const impostorAddress = (await deployContract(impostor.abi, impostor.bytecode, [], ACCOUNT)).address;
    const misled = (await deployContract(user.abi, link(user.bytecode, impostorAddress), [], ACCOUNT)).address;
    expect((await getabi(misled)).result).toBe('Contract source code not verified');

    // A copy of the library (verified through the first one) and a user linked to it: both verified.
    const libraryCopy = (await deployContract(lib.abi, lib.bytecode, [], ACCOUNT)).address;
    const linkedToCopy = (await deployContract(user.abi, link(user.bytecode, libraryCopy), [], ACCOUNT)).address;
    const record = await getsourcecode(linkedToCopy);
    expect(record).toMatchObject({ ContractName: 'UsesMaths', SimilarMatch: first, Library: `Maths:${libraryCopy}` });
    expect(await getsourcecode(libraryCopy)).toMatchObject({ ContractName: 'Maths', SimilarMatch: library });
  });

  it('re-submitting sources compiled before does not compile again', async () => {
    const copy = (await deployContract(token.abi, token.bytecode, ['again', 3n], ACCOUNT)).address;
    // Verified as a similar match first (a read), then submitted: a stored compilation, no compile.
    expect((await getabi(copy)).status).toBe('1');
    const submit = await apiPost(service.apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: key,
      ...standardJsonFields(copy, token, 'Token.sol:Token'),
    });
    const page = await (await fetch(`${service.baseUrl}/receipt/${submit.result}`)).text();
    expect(page).toContain('compiled before');
    const status = await apiGet(service.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: submit.result, apikey: key });
    expect(status.result).toBe('Pass - Verified');
  });
});

/** Init code that returns `runtime` (hex without 0x) as the contract's code. */
function returnCode(runtime: string): Hex {
  const length = runtime.length / 2;
  const len = length.toString(16).padStart(4, '0');
  // PUSH2 len, DUP1, PUSH1 0x0c (where the runtime starts), PUSH1 0, CODECOPY, PUSH1 0, RETURN
  const init = `61${len}80600c6000396000f3`;
  expect(init.length / 2).toBe(12);
  return `0x${init}${runtime}` as Hex;
}
