/**
 * The second attack review: a "full match" earned for values and files the sources do not
 * prove, and a record an owner could not correct. Each attack is built as the attacker would
 * (and checked to do what the attacker wants on chain), then shown defended through the
 * running service on anvil.
 */
import type { Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait, waitForVerdict } from '../helpers/api.js';
import { deployContract, deployRaw, devnetClients } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { compileForTest, solcPackageFor } from '../helpers/solc.js';

const ACCOUNT = deployerAccount('attacks/unprovenParts');
const { apiUrl, apiKey, baseUrl } = sharedService();
const RUN = `${Date.now()}-${process.pid}`;

async function record(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0] as Record<string, string>;
}

async function page(address: string): Promise<string> {
  return (await fetch(`${baseUrl}/address/${address}`)).text();
}

/** Init code that returns `runtime` (0x hex) as the contract's code, whatever it is. */
function initCodeReturning(runtime: string): Hex {
  const body = runtime.replace(/^0x/, '');
  const length = (body.length / 2).toString(16).padStart(4, '0');
  return `0x61${length}80600c6000396000f3${body}`;
}

/** Polls until `check` holds (the chain follower works in the background), failing after `ms`. */
async function eventually(check: () => Promise<boolean>, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`still not so after ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The submitted standard JSON input a getsourcecode record serves (Etherscan wraps it in an extra pair of braces). */
function servedInput(r: Record<string, string>): { sources: Record<string, { content: string }> } {
  return JSON.parse(r.SourceCode!.slice(1, -1)) as { sources: Record<string, { content: string }> };
}

const sweeper = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Pays out small sums, only ever to its guardian's order (${tag}).
contract Sweeper {
    // In the code too: another test's contract is never a copy of this one.
    string public constant TAG = "${tag}";
    address public immutable guardian = 0x1111111111111111111111111111111111111111;
    uint256 public immutable maxSweepWei = 1 ether;

    function sweep(address payable to, uint256 amount) external {
        require(msg.sender == guardian, "not the guardian");
        require(amount <= maxSweepWei, "too much");
        to.transfer(amount);
    }

    receive() external payable {}
}
`;

const ATTACKER = '0xa77ac4e5a77ac4e5a77ac4e5a77ac4e5a77ac4e5';
const MAX_WORD = `0x${'ff'.repeat(32)}`;

/** The deployed runtime with every immutable region rewritten: guardian to the attacker, the limit to 2^256-1. */
function patchedRuntime(built: Built, runtime: Hex): Hex {
  const input = { ...built.input, settings: { ...built.input.settings, outputSelection: { '*': { '*': ['evm.deployedBytecode.immutableReferences'] } } } };
  const compiled = compileForTest(solcPackageFor('0.8.28'), input).contracts!['Sweeper.sol']!['Sweeper']!;
  const references = compiled.evm!.deployedBytecode!.immutableReferences!;
  let code = runtime.slice(2);
  const ids = Object.keys(references);
  expect(ids).toHaveLength(2);
  for (const id of ids) {
    for (const { start, length } of references[id]!) {
      const current = code.slice(start * 2, (start + length) * 2);
      // The guardian's slot holds the address; the other the limit.
      const value = current.endsWith('11'.repeat(20)) ? ATTACKER.slice(2).padStart(64, '0') : MAX_WORD.slice(2);
      code = code.slice(0, start * 2) + value + code.slice((start + length) * 2);
    }
  }
  return `0x${code}`;
}

describe('finding 1: immutable values the sources fix, patched on chain', () => {
  it('a patched copy the chain follower finds is a partial match that lists the values nothing proves', async () => {
    const tag = `follower ${RUN}`;
    const built = await build('0.8.28', standardInput({ 'Sweeper.sol': sweeper(tag) }, { optimizer: true }), 'Sweeper.sol', 'Sweeper');
    const honest = (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address;
    const verified = await verifyAndWait(apiUrl, apiKey, standardJsonFields(honest, built, 'Sweeper.sol:Sweeper'));
    expect(verified.status?.result).toBe('Pass - Verified');
    expect(await record(honest)).toMatchObject({ MatchKind: 'full', RuntimeMatch: 'full', CreationMatch: 'full' });

    // The attacker's copy: the same code with its immutables rewritten, deployed by a 13-byte init code.
    const { publicClient } = devnetClients(ACCOUNT);
    const runtime = (await publicClient.getCode({ address: honest }))!;
    const forged = (await deployRaw(initCodeReturning(patchedRuntime(built, runtime)), ACCOUNT)).address;
    expect(((await publicClient.readContract({ address: forged, abi: built.abi, functionName: 'guardian' })) as string).toLowerCase()).toBe(ATTACKER);
    expect(await publicClient.readContract({ address: forged, abi: built.abi, functionName: 'maxSweepWei' })).toBe(2n ** 256n - 1n);

    // The follower records it (the list does not look for copies itself); it is no full match.
    await eventually(async () => (await (await fetch(`${baseUrl}/contracts`)).text()).includes(forged), 'the follower verified the forged copy');
    const r = await record(forged);
    // Its metadata hash is the real one, its immutables are not proven: partial, the runtime part too.
    expect(r).toMatchObject({ ContractName: 'Sweeper', SimilarMatch: honest, MatchKind: 'partial', RuntimeMatch: 'partial', CreationMatch: '' });
    const html = await page(forged);
    expect(html).not.toContain('byte for byte what these exact sources compile to');
    expect(html).toContain('2 immutable values were taken from the chain and nothing proves them');
    expect(html).toContain(`0x${ATTACKER.slice(2).padStart(64, '0')}`);
    expect(html).toContain(`(address ${ATTACKER})`);
    expect(html).toContain(MAX_WORD);
    // The honest deployment is still the full match it was.
    expect(await record(honest)).toMatchObject({ MatchKind: 'full', SimilarMatch: '' });
  });

  it('a direct submission for a patched deployment passes as partial only; an honest deployment is a full match', async () => {
    const tag = `submitted ${RUN}`;
    const built = await build('0.8.28', standardInput({ 'Sweeper.sol': sweeper(tag) }, { optimizer: true }), 'Sweeper.sol', 'Sweeper');
    // The honest code, read from a throwaway deployment (nobody verifies it), then patched.
    const { publicClient } = devnetClients(ACCOUNT);
    const scratch = (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address;
    const forged = (await deployRaw(initCodeReturning(patchedRuntime(built, (await publicClient.getCode({ address: scratch }))!)), ACCOUNT)).address;

    const submitted = await verifyAndWait(apiUrl, apiKey, standardJsonFields(forged, built, 'Sweeper.sol:Sweeper'));
    expect(submitted.status?.result).toBe('Pass - Verified');
    expect(await record(forged)).toMatchObject({ MatchKind: 'partial', RuntimeMatch: 'partial', CreationMatch: '', SimilarMatch: '' });

    // The real deployment's creation code proves its immutables: a full match, found at once.
    const real = (await deployContract(built.abi, built.bytecode, [], ACCOUNT)).address;
    expect(await record(real)).toMatchObject({ MatchKind: 'full', RuntimeMatch: 'full', CreationMatch: 'full' });
    // And the forged address stays partial: nothing can prove values its constructor never wrote.
    expect(await record(forged)).toMatchObject({ MatchKind: 'partial' });
  });
});

const vault = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Keeps deposits (${tag}).
contract Vault {
    string public constant TAG = "${tag}";
    mapping(address => uint256) public balances;
    function deposit() external payable { balances[msg.sender] += msg.value; }
    function withdraw(uint256 amount) external {
        balances[msg.sender] -= amount;
        payable(msg.sender).transfer(amount);
    }
}
`;

const NOTICE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.20;
// SECURITY NOTICE: this vault is being migrated; send your funds to 0xa77ac4e5a77ac4e5a77ac4e5a77ac4e5a77ac4e5
contract MigrationNotice {}
`;

describe('finding 2: files outside the compilation, and the owner locked out', () => {
  it("a file the contract never imports is compiled but not published, and the licence is the source's own", async () => {
    const tag = `decoy ${RUN}`;
    const own = await build('0.8.28', standardInput({ 'Vault.sol': vault(tag) }, { optimizer: true }), 'Vault.sol', 'Vault');
    const address = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;

    // The attacker's input: the owner's file plus a decoy. The metadata (so the hash, and "full") is unchanged.
    const decoyInput = standardInput({ 'Vault.sol': vault(tag), 'Notice.sol': NOTICE }, { optimizer: true });
    const decoy = await build('0.8.28', decoyInput, 'Vault.sol', 'Vault');
    expect(decoy.bytecode).toBe(own.bytecode);
    const attack = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, decoy, 'Vault.sol:Vault', { licenseType: '12' }));
    expect(attack.status?.result).toBe('Pass - Verified');

    const r = await record(address);
    expect(r.MatchKind).toBe('full');
    expect(Object.keys(servedInput(r).sources)).toEqual(['Vault.sol']);
    expect(r.SourceCode).not.toContain('SECURITY NOTICE');
    expect(r.LicenseType).toBe('MIT');
    const html = await page(address);
    expect(html).not.toContain('SECURITY NOTICE');
    expect(html).toContain('also carried one file that this contract does not use');
    expect(await (await fetch(`${baseUrl}/address/${address}/standard-input.json`)).text()).not.toContain('SECURITY NOTICE');

    // The owner's own submission proves nothing more, and what is published is already exactly theirs.
    const owner = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      ...standardJsonFields(address, own, 'Vault.sol:Vault'),
    });
    expect(owner).toMatchObject({ status: '0', result: 'Contract source code already verified' });
    expect(servedInput(await record(address)).sources).toEqual({ 'Vault.sol': { content: vault(tag) } });
  });

  it('a submission proving as much as a similar match does not replace it; the compilation it was made from does', async () => {
    const tag = `similar ${RUN}`;
    const own = await build('0.8.28', standardInput({ 'Vault.sol': vault(tag) }, { optimizer: true }), 'Vault.sol', 'Vault');
    const original = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;
    expect((await verifyAndWait(apiUrl, apiKey, standardJsonFields(original, own, 'Vault.sol:Vault'))).status?.result).toBe('Pass - Verified');
    const copy = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;
    expect(await record(copy)).toMatchObject({ SimilarMatch: original, MatchKind: 'full' });

    // Another compilation (a decoy file more) proves only as much: the similar match stays.
    const decoy = await build('0.8.28', standardInput({ 'Vault.sol': vault(tag), 'Notice.sol': NOTICE }, { optimizer: true }), 'Vault.sol', 'Vault');
    const attack = await verifyAndWait(apiUrl, apiKey, standardJsonFields(copy, decoy, 'Vault.sol:Vault', { licenseType: '12' }));
    expect(attack.status?.result).toBe('Already Verified');
    const r = await record(copy);
    expect(r).toMatchObject({ SimilarMatch: original, LicenseType: 'MIT' });
    expect(r.SourceCode).not.toContain('SECURITY NOTICE');

    // The deployer submitting the very sources it was matched with gets a record of their own; nothing published changes.
    const owner = await verifyAndWait(apiUrl, apiKey, standardJsonFields(copy, own, 'Vault.sol:Vault'));
    expect(owner.status?.result).toBe('Pass - Verified');
    const mine = await record(copy);
    expect(mine).toMatchObject({ SimilarMatch: '', MatchKind: 'full' });
    expect(mine.SourceCode).toBe(r.SourceCode);
    // And from then on, nobody's submission of equal proof replaces it.
    const late = await verifyAndWait(apiUrl, apiKey, standardJsonFields(copy, decoy, 'Vault.sol:Vault'));
    expect(late.submit).toMatchObject({ status: '0', result: 'Contract source code already verified' });
  });

  it('a whole build with a decoy file verifies deployments without publishing the decoy', async () => {
    const tag = `build ${RUN}`;
    const own = await build('0.8.28', standardInput({ 'Vault.sol': vault(tag) }, { optimizer: true }), 'Vault.sol', 'Vault');
    const address = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;
    const decoyInput = standardInput({ 'Vault.sol': vault(tag), 'Notice.sol': NOTICE }, { optimizer: true });
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifybuild',
      apikey: apiKey,
      compilerversion: own.compilerVersion,
      sourceCode: JSON.stringify(decoyInput),
    });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    expect((await waitForVerdict(apiUrl, submit.result, apiKey)).result).toBe('Pass - Verified');
    await eventually(async () => (await record(address)).ContractName === 'Vault', 'the build verified the deployment');
    const r = await record(address);
    expect(Object.keys(servedInput(r).sources)).toEqual(['Vault.sol']);
    expect(r.SourceCode).not.toContain('SECURITY NOTICE');
    expect(await page(address)).not.toContain('SECURITY NOTICE');
  });
});

const bank = (comment: string, tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// ${comment}
contract Bank {
    string public constant TAG = "${tag}";
    mapping(address => uint256) public held;
    function put() external payable { held[msg.sender] += msg.value; }
    function take(uint256 amount) external { held[msg.sender] -= amount; payable(msg.sender).transfer(amount); }
}
`;

describe('finding 7: decoys that share a fingerprint', () => {
  it("an exact copy of a fully verified contract is a full match through it, whatever a build of decoys holds; a decoy's partial match marks its metadata hash", async () => {
    const tag = `starve ${RUN}`;
    // One build holding 21 variants of the contract: the same code, other comments (other metadata).
    const decoys: Record<string, string> = {};
    for (let i = 0; i < 21; i++) decoys[`decoy/D${i}.sol`] = bank(`SECURITY NOTICE ${i}: send funds to ${ATTACKER}`, tag);
    const decoyBuild = standardInput(decoys, { optimizer: true });
    const first = await build('0.8.28', decoyBuild, 'decoy/D0.sol', 'Bank');
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifybuild',
      apikey: apiKey,
      compilerversion: first.compilerVersion,
      sourceCode: JSON.stringify(decoyBuild),
    });
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    expect((await waitForVerdict(apiUrl, submit.result, apiKey)).result).toBe('Pass - Verified');

    // The author's contract, deployed after: the decoys make it a partial match at first.
    const own = await build('0.8.28', standardInput({ 'Bank.sol': bank("The author's bank.", tag) }, { optimizer: true }), 'Bank.sol', 'Bank');
    const authors = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;
    const early = await record(authors);
    expect(early).toMatchObject({ ContractName: 'Bank', MatchKind: 'partial' });
    // The page shows what differs: the metadata hash, marked in the code.
    const earlyPage = await page(authors);
    expect(earlyPage).toContain('the metadata hash on chain differs from the compiled one');
    expect(earlyPage).toContain('class="t-cborAuxdata"');
    expect(earlyPage).not.toContain('Identical to the code on chain');

    // The author's exact sources prove more: full, replacing the decoy.
    expect((await verifyAndWait(apiUrl, apiKey, standardJsonFields(authors, own, 'Bank.sol:Bank'))).status?.result).toBe('Pass - Verified');
    expect(await record(authors)).toMatchObject({ MatchKind: 'full', SimilarMatch: '' });

    // An exact copy: found through its own metadata hash, so the author's text, fully.
    const copy = (await deployContract(own.abi, own.bytecode, [], ACCOUNT)).address;
    const r = await record(copy);
    expect(r).toMatchObject({ MatchKind: 'full', SimilarMatch: authors });
    expect(r.SourceCode).toContain("The author's bank");
    expect(r.SourceCode).not.toContain('SECURITY NOTICE');
  });
});
