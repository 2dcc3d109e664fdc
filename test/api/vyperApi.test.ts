/**
 * Vyper through Etherscan's /api, end to end: contracts compiled by the real Vyper compilers and
 * deployed on anvil, then verified with verifysourcecode (vyper-json as forge and Etherscan's
 * other clients send it, and a single .vy file), judged by checkverifystatus, and read back with
 * getsourcecode and getabi. The refusals name the problem at once.
 */
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { CompilerListing } from '../../src/core/compilerListing.js';
import type { Hex, VyperInput } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait, waitForVerdict } from '../helpers/api.js';
import { type DeployedForVerify, deployForVerify } from '../helpers/chain.js';
import { createKey, newDataDir, startService } from '../helpers/service.js';
import { CAPPED, compileVyperForTest, IGREETER_03, IGREETER_VYI, vyperAvailable, vyperInput } from '../helpers/vyper.js';

const ACCOUNT = deployerAccount('api/vyperApi');
const { apiUrl, apiKey, baseUrl } = sharedService();
const ready = vyperAvailable();

/** A counter capped at a limit fixed at deployment: immutables, constructor arguments, a module and an interface file (0.4). */
const COUNTER_04 = `# pragma version >=0.4.0
# SPDX-License-Identifier: MIT
# A counter capped at a limit fixed at deployment.
import capped
import IGreeter

OWNER: public(immutable(address))
LIMIT: public(immutable(uint256))
greeter: public(IGreeter)
count: public(uint256)

@deploy
def __init__(limit: uint256, greeter: address):
    OWNER = msg.sender
    LIMIT = limit
    self.greeter = IGreeter(greeter)

@external
def bump(by: uint256) -> uint256:
    self.count = capped.add_capped(self.count, by, LIMIT)
    return self.count
`;

const EDITED_04 = COUNTER_04.replace('# A counter capped', '# A counter, capped');

/** The same counter for 0.3.10: the interface comes through the input's `interfaces`. */
const COUNTER_03 = `# @version ^0.3.10
import IGreeter as IGreeter

OWNER: public(immutable(address))
LIMIT: public(immutable(uint256))
greeter: public(IGreeter)
count: public(uint256)

@external
def __init__(limit: uint256, greeter: address):
    OWNER = msg.sender
    LIMIT = limit
    self.greeter = IGreeter(greeter)

@external
def bump(by: uint256) -> uint256:
    self.count = min(self.count + by, LIMIT)
    return self.count
`;

/** One file, as Etherscan's single-file form takes it: an immutable and a constructor argument. */
const BOX_04 = `# pragma version ~=0.4.0
OWNER: public(immutable(address))
START: public(immutable(uint256))
count: public(uint256)

@deploy
def __init__(start: uint256):
    OWNER = msg.sender
    START = start
    self.count = start

@external
def bump():
    self.count += 1
`;

const GREETER = '0x00000000000000000000000000000000000000aa';
const ARGS = encodeAbiParameters(
  [
    { name: 'limit', type: 'uint256' },
    { name: 'greeter', type: 'address' },
  ],
  [1000n, GREETER],
).slice(2);
const BOX_ARGS = encodeAbiParameters([{ name: 'start', type: 'uint256' }], [7n]).slice(2);

const json04 = (counter = COUNTER_04): VyperInput =>
  vyperInput({ 'contracts/Counter.vy': counter, 'contracts/capped.vy': CAPPED, 'contracts/IGreeter.vyi': IGREETER_VYI }, 'contracts/Counter.vy');
const json03 = (): VyperInput => vyperInput({ 'Counter.vy': COUNTER_03 }, 'Counter.vy', {}, { 'IGreeter.vy': IGREETER_03 });

/** The input as a client sends it: without the output selection it compiled with. */
function sent(input: VyperInput): string {
  const { outputSelection: _o, ...settings } = input.settings;
  return JSON.stringify({ ...input, settings });
}

async function deploy(version: string, input: VyperInput, path: string, args: string): Promise<DeployedForVerify> {
  const { bytecode } = await compileVyperForTest(version, input, path);
  return deployForVerify(`${bytecode}${args}` as Hex, ACCOUNT);
}

/** verifysourcecode's fields as forge sends a Vyper contract: vyper-json, `path:Name`, `vyper:<release>`. */
function vyperJsonFields(address: string, input: string, contractName: string, compilerVersion: string, args: string): Record<string, string> {
  return {
    codeformat: 'vyper-json',
    contractaddress: address,
    sourceCode: input,
    contractname: contractName,
    compilerversion: compilerVersion,
    optimizationUsed: '0',
    constructorArguements: args,
  };
}

const sourceCode = (address: string) => apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });

describe.skipIf(!ready)('Vyper through /api: verifysourcecode, checkverifystatus, getsourcecode, getabi', () => {
  let counter043: DeployedForVerify;
  let edited043: DeployedForVerify;
  let counter0310: DeployedForVerify;
  let box040: DeployedForVerify;
  beforeAll(async () => {
    counter043 = await deploy('0.4.3', json04(), 'contracts/Counter.vy', ARGS);
    // Deployed from sources whose comment differs from those it is verified with: its code is no copy of counter043's.
    edited043 = await deploy('0.4.3', json04(EDITED_04), 'contracts/Counter.vy', ARGS);
    counter0310 = await deploy('0.3.10', json03(), 'Counter.vy', ARGS);
    box040 = await deploy('0.4.0', vyperInput({ 'Box.vy': BOX_04 }, 'Box.vy', { optimize: 'gas' }), 'Box.vy', BOX_ARGS);
  }, 240_000);

  it('0.4.3 as forge sends it (vyper-json, path:Name, vyper:0.4.3): a module, immutables, constructor arguments, a full match', async () => {
    const { submit, status } = await verifyAndWait(
      apiUrl,
      apiKey,
      vyperJsonFields(counter043.address, sent(json04()), 'contracts/Counter.vy:Counter', 'vyper:0.4.3', ARGS),
    );
    expect(submit).toMatchObject({
      status: '1',
      message: 'OK - compiler version "vyper:0.4.3" has no commit: Vyper 0.4.3+commit.bff19ea2 was used (the one commit of that release)',
    });
    expect(status).toMatchObject({ status: '1', result: 'Pass - Verified' });

    const record = (await sourceCode(counter043.address)).result[0];
    expect(record).toMatchObject({
      ContractName: 'Counter',
      CompilerVersion: 'vyper:0.4.3+commit.bff19ea2',
      CompilerType: 'vyper',
      OptimizationUsed: '1',
      Runs: '0',
      EVMVersion: 'Default',
      ConstructorArguments: ARGS,
      LicenseType: 'MIT',
      MatchKind: 'full',
      ContractFileName: 'contracts/Counter.vy',
    });
    // Etherscan wraps a JSON input in one more pair of braces.
    expect(record.SourceCode.startsWith('{{') && record.SourceCode.endsWith('}}')).toBe(true);
    const published = JSON.parse(record.SourceCode.slice(1, -1)) as VyperInput;
    expect(published.language).toBe('Vyper');
    expect(published.sources['contracts/Counter.vy']?.content).toBe(COUNTER_04);
    expect(published.sources['contracts/capped.vy']?.content).toBe(CAPPED);
    const abi = JSON.parse(record.ABI) as { name?: string }[];
    expect(abi.map((f) => f.name)).toEqual(expect.arrayContaining(['bump', 'count', 'OWNER', 'LIMIT', 'greeter']));

    const getabi = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address: counter043.address, apikey: apiKey });
    expect(getabi).toMatchObject({ status: '1' });
    expect(JSON.parse(getabi.result)).toEqual(abi);
  });

  it('0.4.3 with a comment changed: a partial match (the integrity hash differs), shown as such by getsourcecode', async () => {
    const { status } = await verifyAndWait(apiUrl, apiKey, vyperJsonFields(edited043.address, sent(json04()), 'Counter', 'v0.4.3', ARGS));
    expect(status).toMatchObject({ status: '1', result: 'Pass - Verified' });
    const record = (await sourceCode(edited043.address)).result[0];
    expect(record).toMatchObject({ ContractName: 'Counter', MatchKind: 'partial', CompilerVersion: 'vyper:0.4.3+commit.bff19ea2' });
  });

  it('0.3.10: vyper-json with an interface file, the version with its commit (0.3.10+commit.91361694)', async () => {
    const { submit, status } = await verifyAndWait(
      apiUrl,
      apiKey,
      vyperJsonFields(counter0310.address, sent(json03()), 'Counter.vy:Counter', '0.3.10+commit.91361694', ARGS),
    );
    expect(submit).toMatchObject({ status: '1', message: 'OK' });
    expect(status).toMatchObject({ status: '1', result: 'Pass - Verified' });
    const record = (await sourceCode(counter0310.address)).result[0];
    // Before 0.4.1 nothing proves the sources byte for byte: a partial match at best.
    expect(record).toMatchObject({ ContractName: 'Counter', CompilerVersion: 'vyper:0.3.10+commit.91361694', ConstructorArguments: ARGS, Runs: '0' });
  });

  it('0.4.0: a single .vy file, as Etherscan takes one (no codeformat, a vyper: compiler)', async () => {
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      contractaddress: box040.address,
      sourceCode: BOX_04,
      contractname: 'Box',
      compilerversion: 'vyper:0.4.0',
      optimizationUsed: '1',
      constructorArguements: BOX_ARGS,
    });
    expect(status).toMatchObject({ status: '1', result: 'Pass - Verified' });
    const record = (await sourceCode(box040.address)).result[0];
    expect(record).toMatchObject({
      SourceCode: BOX_04,
      ContractName: 'Box',
      CompilerVersion: 'vyper:0.4.0+commit.e9db8d9f',
      OptimizationUsed: '1',
      ConstructorArguments: BOX_ARGS,
    });
  });

  it('sources that are not the deployed ones fail, and checkverifystatus says so', async () => {
    const other = vyperInput({ 'Box.vy': BOX_04.replace('self.count += 1', 'self.count += 2') }, 'Box.vy', { optimize: 'gas' });
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, {
      ...vyperJsonFields(box040.address, sent(other), 'Box.vy:Box', 'vyper:0.4.0', BOX_ARGS),
    });
    expect(submit.status).toBe('1');
    expect(status).toMatchObject({ status: '0' });
    expect(status?.result).toMatch(/^Fail - Unable to verify/);
    // The record stands as it was verified before.
    expect((await sourceCode(box040.address)).result[0]).toMatchObject({ SourceCode: BOX_04 });
  });

  it('a dry run of a Vyper submission verifies and publishes nothing', async () => {
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      ...vyperJsonFields(box040.address, sent(vyperInput({ 'Box.vy': BOX_04 }, 'Box.vy', { optimize: 'gas' })), 'Box.vy:Box', 'vyper:0.4.0', BOX_ARGS),
      dryrun: '1',
    });
    expect(status?.result).toMatch(/^Pass - Verified \(dry run/);
    // The record is still the single file verified before.
    expect((await sourceCode(box040.address)).result[0]).toMatchObject({ SourceCode: BOX_04 });
  });

  it('the compiler list names the Vyper releases as compilerversion takes them; the page shows them', async () => {
    const listing = (await (await fetch(`${baseUrl}/compilers.json`)).json()) as CompilerListing;
    const v043 = listing.vyper?.builds.find((b) => b.version === '0.4.3');
    expect(v043).toMatchObject({ compilerVersion: 'vyper:0.4.3', longVersion: '0.4.3+commit.bff19ea2', cached: true, prerelease: false });
    expect(listing.vyper?.builds.find((b) => b.version === '0.4.1rc2')).toMatchObject({ prerelease: true, cached: true });
    const page = await (await fetch(`${baseUrl}/compilers?q=0.4.3`)).text();
    expect(page).toContain('<h2 id="vyper">Vyper</h2>');
    expect(page).toContain('vyper:0.4.3');
  });

  describe('refusals name the problem', () => {
    const refused = async (fields: Record<string, string>) => {
      const answer = await apiPost(apiUrl, { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...fields });
      expect(answer.status).toBe('0');
      return answer.result as string;
    };

    it('a vyper-json input holding Solidity', async () => {
      const input = JSON.stringify({ language: 'Vyper', sources: { 'A.sol': { content: 'pragma solidity ^0.8.0;\ncontract A {}\n' } }, settings: {} });
      expect(await refused(vyperJsonFields(counter043.address, input, 'A.sol:A', 'vyper:0.4.3', ''))).toBe(
        'Invalid parameter sourceCode: the vyper-json input holds Solidity ("A.sol"): send Solidity as solidity-standard-json-input with a solc version',
      );
    });

    it('Solidity sent as vyper-json', async () => {
      const input = JSON.stringify({ language: 'Solidity', sources: { 'A.sol': { content: 'contract A {}' } }, settings: {} });
      expect(await refused(vyperJsonFields(counter043.address, input, 'A.sol:A', 'vyper:0.4.3', ''))).toBe(
        'Invalid parameter sourceCode: a vyper-json input must have "language": "Vyper" (got "Solidity"); send Solidity as solidity-standard-json-input with a solc version',
      );
    });

    it('Vyper sources named with a solc version, as vyper-json and as a single file', async () => {
      expect(await refused(vyperJsonFields(counter043.address, sent(json04()), 'Counter', 'v0.8.26+commit.8a97fa7a', ''))).toBe(
        'Invalid parameter compilerversion: v0.8.26+commit.8a97fa7a is a solc version, and these are Vyper sources: name a Vyper compiler (vyper:0.4.3, as Etherscan spells it)',
      );
      expect(
        await refused({
          contractaddress: box040.address,
          sourceCode: BOX_04,
          contractname: 'Box',
          compilerversion: 'v0.8.26+commit.8a97fa7a',
          codeformat: 'solidity-single-file',
        }),
      ).toBe(
        'These sources are Vyper, not Solidity: send them as vyper-json (or a .vy file) with a Vyper compiler version (vyper:0.4.1), not v0.8.26+commit.8a97fa7a',
      );
    });

    it('a Vyper version that names no release, and one with another release’s commit', async () => {
      expect(await refused(vyperJsonFields(counter043.address, sent(json04()), 'Counter', 'vyper:0.9.9', ''))).toBe(
        'Invalid parameter compilerversion: compiler version vyper:0.9.9 is not a Vyper release known here: name an existing release (vyper:0.4.3), or give its commit (0.9.9+commit.<8 hex digits>)',
      );
      expect(await refused(vyperJsonFields(counter043.address, sent(json04()), 'Counter', 'vyper:0.4.3+commit.deadbeef', ''))).toMatch(
        /^Invalid parameter compilerversion: compiler version vyper:0\.4\.3\+commit\.deadbeef is not a Vyper release: that release is vyper:0\.4\.3\+commit\.bff19ea2$/,
      );
    });

    it('a contract name that designates no source of the input', async () => {
      expect(await refused(vyperJsonFields(counter043.address, sent(json04()), 'contracts/Nope.vy:Nope', 'vyper:0.4.3', ''))).toBe(
        'Invalid parameter contractname: the file "contracts/Nope.vy" is not among the sources of the vyper-json input',
      );
    });
  });
});

describe.skipIf(!ready)('Vyper jobs survive a restart', () => {
  it('Vyper jobs accepted before a SIGKILL all reach their verdict after a restart', async () => {
    const rpcUrl = inject('rpcUrl');
    const dataDir = await newDataDir();
    const key = await createKey(dataDir);
    const deployed: { address: string; input: VyperInput }[] = [];
    for (let i = 0; i < 6; i++) {
      const input = vyperInput(
        {
          'Durable.vy': `# pragma version ~=0.4.0\nID: constant(uint256) = ${i}\nstored: public(uint256)\n\n@external\ndef put(v: uint256):\n    self.stored = v + ID\n`,
        },
        'Durable.vy',
      );
      deployed.push({ address: (await deploy('0.4.3', input, 'Durable.vy', '')).address, input });
    }
    // One job at a time, and status checks that do not wait for a verdict: the last is still queued when the process dies.
    const first = await startService({ rpcUrl, dataDir, args: ['--job-concurrency', '1', '--rate-free', '1000', '--status-wait-ms', '0'] });
    const receipts: string[] = [];
    try {
      for (const d of deployed) {
        const env = await apiPost(first.apiUrl, {
          module: 'contract',
          action: 'verifysourcecode',
          apikey: key,
          ...vyperJsonFields(d.address, sent(d.input), 'Durable.vy:Durable', 'vyper:0.4.3', ''),
        });
        expect(env, JSON.stringify(env)).toMatchObject({ status: '1' });
        receipts.push(env.result);
      }
      const pending = await apiPost(first.apiUrl, { module: 'contract', action: 'checkverifystatus', guid: receipts[receipts.length - 1]!, apikey: key });
      expect(pending.result).toBe('Pending in queue');
    } finally {
      await first.kill();
    }
    const second = await startService({ rpcUrl, dataDir, args: ['--rate-free', '1000'] });
    try {
      const verdicts = await Promise.all(receipts.map((r) => waitForVerdict(second.apiUrl, r, key)));
      expect(verdicts.map((v) => v.result)).toEqual(receipts.map(() => 'Pass - Verified'));
      const record = (await apiGet(second.apiUrl, { module: 'contract', action: 'getsourcecode', address: deployed[5]!.address, apikey: key })).result[0];
      expect(record).toMatchObject({ ContractName: 'Durable', CompilerVersion: 'vyper:0.4.3+commit.bff19ea2', MatchKind: 'full' });
    } finally {
      await second.stop();
    }
  }, 240_000);
});
