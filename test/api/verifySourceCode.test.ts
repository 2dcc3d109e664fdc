import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { type Abi, encodeAbiParameters, parseEventLogs } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Hex } from '../../src/core/types.js';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, apiPost, sharedService, verifyAndWait, waitForVerdict } from '../helpers/api.js';
import { deployContract, devnetClients } from '../helpers/chain.js';
import { type Built, build, singleFileFields, standardInput, standardJsonFields } from '../helpers/contracts.js';

// hardhat-verify 2's own Etherscan client: its status request is the one that needs the bare text.
const { Etherscan } = createRequire(import.meta.url)('@nomicfoundation/hardhat-verify/internal/etherscan') as {
  Etherscan: new (
    apiKey: string,
    apiUrl: string,
    browserUrl: string,
    chainId: number | undefined,
  ) => {
    getVerificationStatus(guid: string): Promise<{ message: string; isFailure(): boolean }>;
  };
};

/** A request with exactly these headers (fetch would add a User-Agent). */
function rawRequest(method: 'GET' | 'POST', url: string, headers: Record<string, string>, body?: string): Promise<{ result: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      let text = '';
      res
        .setEncoding('utf8')
        .on('data', (c: string) => (text += c))
        .on('end', () => resolve(JSON.parse(text) as { result: unknown }));
    });
    req.once('error', reject);
    req.end(body);
  });
}

const ACCOUNT = deployerAccount('api/verifySourceCode');
const { apiUrl, apiKey } = sharedService();

const COUNTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// A counter with a label.
contract Counter {
    uint256 public count;
    address public immutable owner;
    string public label;

    constructor(string memory _label, uint256 start) {
        owner = msg.sender;
        label = _label;
        count = start;
    }

    function inc() external {
        count += 1;
    }
}
`;

async function sourceRecord(address: string) {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  expect(env.status).toBe('1');
  expect(env.message).toBe('OK');
  return env.result[0] as Record<string, string>;
}

describe('verifysourcecode: passes', () => {
  let counter: Built;
  const counterArgs = ['hello', 41n] as const;
  const encodedArgs = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], counterArgs).slice(2);

  beforeAll(async () => {
    counter = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }, { optimizer: true, runs: 200 }), 'Counter.sol', 'Counter');
  });

  it('a single file with constructor arguments and an immutable: full match, record served', async () => {
    const { address } = await deployContract(counter.abi, counter.bytecode, counterArgs, ACCOUNT);
    const { submit, status } = await verifyAndWait(
      apiUrl,
      apiKey,
      singleFileFields(address, counter, 'Counter', COUNTER, { constructorArguements: encodedArgs }),
    );
    expect(submit.status).toBe('1');
    expect(submit.result).toMatch(/^[a-z0-9]{50}$/);
    expect(status).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' });

    const record = await sourceRecord(address);
    expect(record.SourceCode).toBe(COUNTER);
    expect(record.ContractName).toBe('Counter');
    expect(record.CompilerVersion).toBe(counter.compilerVersion);
    expect(record.OptimizationUsed).toBe('1');
    expect(record.Runs).toBe('200');
    expect(record.ConstructorArguments).toBe(encodedArgs);
    expect(record.EVMVersion).toBe('Default');
    expect(record.LicenseType).toBe('MIT');
    expect(record.Proxy).toBe('0');
    expect(record.Implementation).toBe('');
    expect(record.SwarmSource).toMatch(/^ipfs:\/\//);
    expect(record.MatchKind).toBe('full');
    expect(JSON.parse(record.ABI!)).toEqual(counter.abi);

    const abi = await apiGet(apiUrl, { module: 'contract', action: 'getabi', address, apikey: apiKey });
    expect(abi.status).toBe('1');
    expect(JSON.parse(abi.result)).toEqual(counter.abi);

    // A second submission for the address is refused at once.
    const again = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      ...singleFileFields(address, counter, 'Counter', COUNTER),
    });
    expect(again).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code already verified' });
  });

  it('standard JSON: full match, SourceCode wrapped in {{...}}', async () => {
    const { address } = await deployContract(counter.abi, counter.bytecode, counterArgs, ACCOUNT);
    const { status } = await verifyAndWait(
      apiUrl,
      apiKey,
      standardJsonFields(address, counter, 'Counter.sol:Counter', { constructorArguments: `0x${encodedArgs}` }),
    );
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record.SourceCode!.startsWith('{{')).toBe(true);
    expect(record.SourceCode!.endsWith('}}')).toBe(true);
    // The proven compilation: the input's language, sources and settings, less the outputSelection the compile ignores.
    const { outputSelection: _ignored, ...settings } = counter.input.settings;
    expect(JSON.parse(record.SourceCode!.slice(1, -1))).toEqual({ ...counter.input, settings });
    expect(record.ContractFileName).toBe('Counter.sol');
    expect(record.MatchKind).toBe('full');
  });

  it("a compiler version without its commit (v0.8.28) verifies with that release's commit, and the answer says which", async () => {
    const source = COUNTER.replace('contract Counter {', `contract Counter {\n    uint256 public constant NO_COMMIT = ${Date.now()};`);
    const fresh = await build('0.8.28', standardInput({ 'Counter.sol': source }, { optimizer: true, runs: 200 }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(fresh.abi, fresh.bytecode, counterArgs, ACCOUNT);
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, fresh, 'Counter', source, { compilerversion: 'v0.8.28' }));
    expect(submit).toMatchObject({
      status: '1',
      message: 'OK - compiler version "v0.8.28" has no commit: solc v0.8.28+commit.7893614a was used (the one commit of that release)',
    });
    expect(status?.result).toBe('Pass - Verified');
    expect(status?.message).toBe('OK');
    expect((await sourceRecord(address)).CompilerVersion).toBe('v0.8.28+commit.7893614a');
  });

  it('an edited comment is a partial match; the exact source is full', async () => {
    // Code no other test verified: a copy of a verified contract would be a similar match.
    const exact = COUNTER.replace('contract Counter {', `contract Counter {\n    uint256 public constant EDITED = ${Date.now()};`);
    const edited = exact.replace('A counter with a label.', 'A counter, edited comment.');
    const fresh = await build('0.8.28', standardInput({ 'Counter.sol': exact }, { optimizer: true, runs: 200 }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(fresh.abi, fresh.bytecode, counterArgs, ACCOUNT);
    const partial = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, fresh, 'Counter', edited));
    expect(partial.status?.result).toBe('Pass - Verified');
    // The one word clients do not compare says it: the message.
    expect(partial.status?.message).toMatch(/^OK - Partial match: the code matches but the metadata hash does not/);
    expect((await sourceRecord(address)).MatchKind).toBe('partial');
    // The exact source is better: it replaces the partial match.
    const full = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, fresh, 'Counter', exact));
    expect(full.status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record.MatchKind).toBe('full');
    expect(record.SourceCode).toBe(exact);
  });

  it('bytecodeHash none: a partial match', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }, { metadata: { bytecodeHash: 'none' } }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, counterArgs, ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, standardJsonFields(address, built, 'Counter.sol:Counter'));
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record.MatchKind).toBe('partial');
    expect(record.SwarmSource).toBe('');
  });

  it('viaIR', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }, { optimizer: true, viaIR: true }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, counterArgs, ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Counter', COUNTER, { viaIR: '1' }));
    expect(status?.result).toBe('Pass - Verified');
    expect((await sourceRecord(address)).MatchKind).toBe('full');
  });

  it('a linked external library, and the library itself (call protection)', async () => {
    const source = `// SPDX-License-Identifier: GPL-3.0
pragma solidity ^0.8.0;
library MathLib {
    function addOne(uint256 a) external pure returns (uint256) { return a + 1; }
}
contract UsesLib {
    function go(uint256 a) external pure returns (uint256) { return MathLib.addOne(a); }
}
`;
    const lib = await build('0.8.28', standardInput({ 'Lib.sol': source }), 'Lib.sol', 'MathLib');
    const { address: libAddress } = await deployContract(lib.abi, lib.bytecode, [], ACCOUNT);
    const user = await build('0.8.28', standardInput({ 'Lib.sol': source }), 'Lib.sol', 'UsesLib');
    const linked = user.bytecode.replace(/__\$[0-9a-f]{34}\$__/g, libAddress.slice(2)) as Hex;
    expect(linked).not.toBe(user.bytecode);
    const { address } = await deployContract(user.abi, linked, [], ACCOUNT);

    const [libVerdict, userVerdict] = await Promise.all([
      verifyAndWait(apiUrl, apiKey, singleFileFields(libAddress, lib, 'MathLib', source)),
      verifyAndWait(apiUrl, apiKey, singleFileFields(address, user, 'UsesLib', source, { libraryname1: 'MathLib', libraryaddress1: libAddress })),
    ]);
    expect(libVerdict.status?.result).toBe('Pass - Verified');
    expect(userVerdict.status?.result).toBe('Pass - Verified');
    expect((await sourceRecord(address)).Library).toBe(`MathLib:${libAddress}`);
    expect((await sourceRecord(libAddress)).LicenseType).toBe('GNU GPLv3');
  });

  it('a contract deployed by a factory', async () => {
    const source = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Child {
    uint256 public x;
    constructor(uint256 _x) { x = _x; }
}
contract Factory {
    event Created(address child);
    function make(uint256 x) external returns (address) {
        Child c = new Child(x);
        emit Created(address(c));
        return address(c);
    }
}
`;
    const factory = await build('0.8.28', standardInput({ 'Factory.sol': source }), 'Factory.sol', 'Factory');
    const child = await build('0.8.28', standardInput({ 'Factory.sol': source }), 'Factory.sol', 'Child');
    const { address: factoryAddress } = await deployContract(factory.abi, factory.bytecode, [], ACCOUNT);
    const { publicClient, walletClient } = devnetClients(ACCOUNT);
    const hash = await walletClient.writeContract({
      address: factoryAddress,
      abi: factory.abi,
      functionName: 'make',
      args: [7n],
      account: walletClient.account!,
      chain: walletClient.chain,
    });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    const [log] = parseEventLogs({ abi: factory.abi as Abi, logs: receipt.logs, eventName: 'Created' }) as unknown as [{ args: { child: string } }];
    const childAddress = log.args.child.toLowerCase();

    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(childAddress, child, 'Child', source));
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(childAddress);
    expect(record.ConstructorArguments).toBe(encodeAbiParameters([{ type: 'uint256' }], [7n]).slice(2));
    expect(record.CreationMatch).not.toBe('');
  });
});

describe('verifysourcecode: the compiler matrix', () => {
  const STORE = `pragma solidity >=0.4.11;
contract Store {
    uint public value;
    function set(uint v) public { value = v; }
}
`;
  const versions = ['0.4.11', '0.4.26', '0.5.17', '0.6.12', '0.7.6', '0.8.28'];
  const cases = versions.flatMap((v) => [true, false].map((optimizer) => ({ version: v, optimizer })));

  it.each(cases)('solc $version, optimizer $optimizer', async ({ version, optimizer }) => {
    const built = await build(version, standardInput({ 'Store.sol': STORE }, { optimizer }), 'Store.sol', 'Store');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Store', STORE));
    expect(status?.result).toBe('Pass - Verified');
    const record = await sourceRecord(address);
    expect(record.OptimizationUsed).toBe(optimizer ? '1' : '0');
    expect(record.CompilerVersion).toBe(built.compilerVersion);
  });
});

describe('verifysourcecode: failures name the problem', () => {
  const RUNS = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Constants {
    uint256 constant A = 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00;
    uint256 constant B = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffff00000;
    function a() external pure returns (uint256) { return A; }
    function b() external pure returns (uint256) { return B; }
    function c(uint256 x) external pure returns (uint256) { return x ^ A ^ B; }
}
`;
  const ABSTRACT = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
abstract contract Base {
    function value() public view virtual returns (uint256);
}
contract Impl is Base {
    function value() public pure override returns (uint256) { return 3; }
}
`;

  it('wrong optimizer runs', async () => {
    const built = await build('0.8.28', standardInput({ 'C.sol': RUNS }, { optimizer: true, runs: 1 }), 'C.sol', 'Constants');
    const other = await build('0.8.28', standardInput({ 'C.sol': RUNS }, { optimizer: true, runs: 100000 }), 'C.sol', 'Constants');
    expect(other.bytecode.length).not.toBe(built.bytecode.length); // the precondition: runs change the code
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Constants', RUNS, { runs: '100000' }));
    // Etherscan's reason, then the diagnosis: the runs that make it match.
    expect(status).toMatchObject({ status: '0', message: 'NOTOK' });
    expect(status?.result).toMatch(/^Fail - Unable to verify\. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode\. /);
    // A single file is never a full match of a build named C.sol; runs 1 and 200 give the same code here.
    const suggested = /It matches \(a partial match\) with the optimizer enabled, (\d+) runs \(you sent: 100000\)\./.exec(String(status?.result))?.[1];
    expect(['1', '200']).toContain(suggested);
    // Who sees the reason: hardhat-verify 2's own request (a GET without chainid or User-Agent)
    // gets the bare text it compares against; curl, a POST (Foundry) and verbose=1 get the reason.
    const guid = String(submit.result);
    const hardhat2 = await new Etherscan(apiKey, apiUrl, apiUrl.replace(/\/api$/, ''), undefined).getVerificationStatus(guid);
    expect(hardhat2.message).toBe('Fail - Unable to verify');
    expect(hardhat2.isFailure()).toBe(true);
    const query = `module=contract&action=checkverifystatus&guid=${guid}&apikey=${apiKey}`;
    const reasonOf = async (method: 'GET' | 'POST', headers: Record<string, string>, extra = '') =>
      String(
        (await rawRequest(method, `${apiUrl}${method === 'GET' ? `?${query}${extra}` : ''}`, headers, method === 'POST' ? `${query}${extra}` : undefined))
          .result,
      );
    expect(await reasonOf('GET', { 'user-agent': 'curl/8.5.0' })).toMatch(/^Fail - Unable to verify\. \S/);
    expect(await reasonOf('POST', { 'content-type': 'application/x-www-form-urlencoded' })).toMatch(/^Fail - Unable to verify\. \S/);
    expect(await reasonOf('GET', {}, '&verbose=1')).toMatch(/^Fail - Unable to verify\. \S/);
    expect(await reasonOf('GET', { 'user-agent': 'curl/8.5.0' }, '&verbose=0')).toBe('Fail - Unable to verify');
    expect(await reasonOf('GET', {})).toBe('Fail - Unable to verify');
    // A failed attempt does not block the right one.
    // The suggested runs, applied, pass.
    const right = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Constants', RUNS, { runs: suggested! }));
    expect(right.status?.result).toBe('Pass - Verified');
  });

  it('wrong compiler version', async () => {
    const built = await build('0.8.28', standardInput({ 'C.sol': RUNS }), 'C.sol', 'Constants');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const older = await build('0.8.18', standardInput({ 'C.sol': RUNS }), 'C.sol', 'Constants');
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Constants', RUNS, { compilerversion: older.compilerVersion }));
    expect(status?.result).toMatch(/^Fail - Unable to verify\. Compiled contract deployment bytecode does NOT match the transaction deployment bytecode\. /);
    expect(status?.result).toContain('The deployed code was compiled with solc 0.8.28 (read from its metadata); you asked for 0.8.18.');
    expect(status?.result).toContain(`compiler v0.8.28+commit.7893614a (you sent: ${older.compilerVersion})`);
  });

  it('wrong constructor arguments', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, ['right', 1n], ACCOUNT);
    const wrong = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['wrong', 2n]);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Counter', COUNTER, { constructorArguements: wrong }));
    expect(status?.result).toMatch(/^Fail - Unable to verify\. Please check if the correct constructor argument was entered\. /);
    const right = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ['right', 1n]);
    // The arguments on chain once, decoded with the constructor's types, and the way out: leave the field empty.
    expect(status?.result).toContain(`The creation transaction carries ${right} (string _label = "right", uint256 start = 1); you sent ${wrong}.`);
    expect(String(status?.result).split(right.slice(2))).toHaveLength(2);
    expect(status?.result).toContain('Or leave the constructor arguments empty: the service reads them from the creation transaction.');
    expect(status?.result).toContain('It matches (a full match) with the constructor arguments of the creation transaction.');
    expect(status?.result).toMatch(/ Diagnosis: http:\/\/127\.0\.0\.1:\d+\/receipt\/[a-z0-9]{50}$/);
    // As suggested: the same submission without arguments verifies.
    const { status: again } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Counter', COUNTER, { constructorArguements: '' }));
    expect(again?.result).toBe('Pass - Verified');
  });

  it('wrong contract name', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, ['x', 1n], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Countr', COUNTER));
    expect(status?.result).toMatch(/^Fail - Unable to verify\. Unable to locate ContractName Countr, did you specify the correct Contract Name\? /);
    expect(status?.result).toContain('Countr is not the contract deployed here; Counter of your sources compiles to the deployed code.');
    // A single file has no name of the user's: none is made up from the misspelling.
    expect(status?.result).toContain('did you specify the correct Contract Name? These sources define Counter.');
    expect(status?.result).not.toContain('Countr.sol');
  });

  it('an abstract contract', async () => {
    const built = await build('0.8.28', standardInput({ 'A.sol': ABSTRACT }), 'A.sol', 'Impl');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Base', ABSTRACT));
    expect(status?.status).toBe('0');
    expect(status?.result).toMatch(/^Fail - Unable to verify\. .*abstract/);
  });

  it('an address with no code', async () => {
    const submit = await apiPost(apiUrl, {
      module: 'contract',
      action: 'verifysourcecode',
      apikey: apiKey,
      contractaddress: '0x000000000000000000000000000000000000dEaD',
      sourceCode: COUNTER,
      contractname: 'Counter',
      compilerversion: 'v0.8.28+commit.7893614a',
    });
    // The shared service waits the default 3 s for a lagging node before it refuses.
    expect(submit).toMatchObject({ status: '0', message: 'NOTOK' });
    expect(submit.result).toMatch(
      /^Unable to locate ContractCode at 0x000000000000000000000000000000000000dead: the node had no code there at block \d+ \(still none after waiting 3 s\)$/,
    );
  });

  it('a source that does not compile', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, ['x', 1n], ACCOUNT);
    const broken = COUNTER.replace('count += 1;', 'count += ;');
    const { status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, 'Counter', broken));
    expect(status?.result).toMatch(/^Fail - Unable to verify\. Solidity Compilation Error: .*ParserError/s);
  });

  it("two concurrent submissions for one address by one key: one is verified, the other is refused as that key's duplicate", async () => {
    // A source of its own: its compilation is not known, so the first job is still compiling when the second is taken.
    const source = `${COUNTER}// edition ${Date.now()}\n`;
    const built = await build('0.8.28', standardInput({ 'Counter.sol': source }), 'Counter.sol', 'Counter');
    const { address } = await deployContract(built.abi, built.bytecode, ['x', 1n], ACCOUNT);
    const fields = { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...singleFileFields(address, built, 'Counter', source) };
    const answers = await Promise.all([apiPost(apiUrl, fields), apiPost(apiUrl, fields)]);
    const accepted = answers.filter((a) => a.status === '1');
    expect(accepted).toHaveLength(1);
    const receipt = accepted[0]!.result as string;
    expect(answers.find((a) => a.status === '0')?.result).toContain(`still waiting or running (receipt ${receipt})`);
    expect((await waitForVerdict(apiUrl, receipt, apiKey)).result).toBe('Pass - Verified');
  });

  it('two concurrent submissions of a compilation verified before: the first is verified at once, the second is told so', async () => {
    const built = await build('0.8.28', standardInput({ 'Counter.sol': COUNTER }), 'Counter.sol', 'Counter');
    const fields = async () => {
      const { address } = await deployContract(built.abi, built.bytecode, ['x', 1n], ACCOUNT);
      return { module: 'contract', action: 'verifysourcecode', apikey: apiKey, ...singleFileFields(address, built, 'Counter', COUNTER) };
    };
    // Known from here on, whatever ran before.
    expect((await verifyAndWait(apiUrl, apiKey, await fields())).status?.result).toBe('Pass - Verified');
    const twice = await fields();
    const answers = await Promise.all([apiPost(apiUrl, twice), apiPost(apiUrl, twice)]);
    const accepted = answers.filter((a) => a.status === '1');
    expect(accepted).toHaveLength(1);
    const receipt = accepted[0]!.result as string;
    // Taken in turn, the second sees the record the first made at once, never a second job.
    expect(answers.find((a) => a.status === '0')?.result).toBe('Contract source code already verified');
    expect((await waitForVerdict(apiUrl, receipt, apiKey)).result).toBe('Pass - Verified');
  });
});
