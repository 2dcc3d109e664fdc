/**
 * Diagnoses of failed verifications, on the suite's service: for each family a contract is
 * deployed, a wrong submission fails with a text that names the fix, and the submission with
 * that fix applied passes. A submission nothing near matches shows where the codes differ.
 * A correct submission sent while a long diagnosis runs is timed against one sent alone.
 */
import { encodeAbiParameters } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract, deployRaw } from '../helpers/chain.js';
import { type BuildOptions, type Built, build, linkBytecode, singleFileFields, standardInput, standardJsonFields } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('diagnosis/diagnosis');
const { apiUrl, baseUrl, apiKey } = sharedService();
const RUN = Date.now();

/** A contract of its own per case: no case's code is a copy of another's. */
const source = (name: string, constant = 7) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// Diagnosed (${RUN}).
contract ${name} {
    uint256 public value;
    address public owner;
    uint256 public constant STEP = ${constant};

    constructor(uint256 v) {
        value = v;
        owner = msg.sender;
    }

    function set(uint256 v) external {
        require(msg.sender == owner, "owner");
        value = v * STEP + 1;
    }
}
`;
const ARGS = [41n] as const;
const encodedArgs = encodeAbiParameters([{ type: 'uint256' }], ARGS).slice(2);

let lastReceipt = '';

/** Submits, waits, and returns the failure text (as a client that sends chainid sees it). */
async function failureText(fields: Record<string, string>): Promise<string> {
  const started = Date.now();
  const { submit, status } = await verifyAndWait(apiUrl, apiKey, fields);
  expect(submit.status, JSON.stringify(submit)).toBe('1');
  expect(status?.result).toMatch(/^Fail - Unable to verify\. /);
  lastReceipt = String(submit.result);
  // Per family: submission to diagnosed verdict, and what the search cost (for the closing figures).
  const doc = (await (await fetch(`${baseUrl}/receipt/${lastReceipt}.json`)).json()) as {
    reasonCode: string;
    diagnosis: { tried: number; compiles: number } | null;
  };
  console.log(
    `diagnosis ${doc.reasonCode}: ${Date.now() - started} ms to the verdict, ${doc.diagnosis?.tried ?? 0} settings tried, ${doc.diagnosis?.compiles ?? 0} compiles`,
  );
  return String(status?.result);
}

async function passes(fields: Record<string, string>): Promise<void> {
  const { submit, status } = await verifyAndWait(apiUrl, apiKey, fields);
  expect(submit.status, JSON.stringify(submit)).toBe('1');
  expect(status?.result).toBe('Pass - Verified');
}

async function deployed(
  name: string,
  version: string,
  options: Parameters<typeof standardInput>[1],
  constant = 7,
): Promise<{ address: string; built: Built; text: string }> {
  const text = source(name, constant);
  const built = await build(version, standardInput({ [`${name}.sol`]: text }, options), `${name}.sol`, name);
  const { address } = await deployContract(built.abi, built.bytecode, ARGS, ACCOUNT);
  return { address, built, text };
}

/** verifysourcecode's fields for the case's sources as a standard JSON input with `metadata` settings. */
function jsonFields(address: string, built: Built, name: string, text: string, metadata?: BuildOptions['metadata']): Record<string, string> {
  const input = standardInput({ [`${name}.sol`]: text }, { optimizer: built.input.settings.optimizer?.enabled ?? false, metadata });
  return standardJsonFields(address, { ...built, input }, `${name}.sol:${name}`);
}

/** The receipt's verdict details, and the record getsourcecode serves for the address. */
async function verdictOf(
  receipt: string,
  address: string,
): Promise<{ result: { matchKind: string; creationMatch: string | null; runtimeMatch: string | null; replaced?: boolean }; served: { MatchKind: string } }> {
  const doc = (await (await fetch(`${baseUrl}/receipt/${receipt}.json`)).json()) as {
    result: { matchKind: string; creationMatch: string | null; runtimeMatch: string | null };
  };
  const record = (await (await fetch(`${apiUrl}?module=contract&action=getsourcecode&address=${address}&apikey=${apiKey}`)).json()) as {
    result: { MatchKind: string }[];
  };
  return { result: doc.result, served: record.result[0]! };
}

describe('diagnoses of failed verifications', () => {
  beforeAll(() => {
    expect(apiUrl).toBeTruthy();
  });

  it('optimizer: deployed with it enabled, submitted disabled', async () => {
    const { address, built, text } = await deployed(`Opt${RUN}`, '0.8.28', { optimizer: true, runs: 200 });
    const reason = await failureText(singleFileFields(address, built, `Opt${RUN}`, text, { optimizationUsed: '0' }));
    expect(reason).toContain('It matches (a full match) with the optimizer enabled, 200 runs (you sent: disabled)');
    // The same diagnosis for tools: /receipt/<guid>.json.
    const res = await fetch(`${baseUrl}/receipt/${lastReceipt}.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      state: string;
      status: string;
      reasonCode: string;
      diagnosis: { fix: { changes: { setting: string; to: string }[]; matchKind: string } };
    };
    // The API's text ends with the way to this receipt's page; the receipt itself needs no link to itself.
    expect(reason.endsWith(` Diagnosis: ${baseUrl}/receipt/${lastReceipt}`)).toBe(true);
    expect(doc).toMatchObject({ state: 'fail', status: reason.slice(0, reason.lastIndexOf(' Diagnosis: ')), reasonCode: 'wrong_optimizer' });
    expect(doc.diagnosis.fix).toEqual({ changes: [{ setting: 'optimizer', from: 'disabled', to: 'enabled' }], matchKind: 'full' });
    expect((await fetch(`${baseUrl}/receipt/${'z'.repeat(50)}.json`)).status).toBe(404);
    // The receipt page: a readable report with the corrected fields and options to copy.
    const page = await (await fetch(`${baseUrl}/receipt/${lastReceipt}`)).text();
    expect(page).toContain('<h2>Diagnosis</h2>');
    expect(page).toContain('<li>the optimizer enabled, 200 runs (you sent: disabled)</li>');
    expect(page).toContain('<pre class="source" id="fix-curl">-d optimizationUsed=1 -d runs=200</pre>');
    // forge verifies from its build: the setting goes to forge build, then verify-contract.
    expect(page).toContain(
      `<pre class="source" id="fix-forge">forge build --optimize --optimizer-runs 200\nforge verify-contract ${address.toLowerCase()} Opt${RUN} --chain 31337 --watch</pre>`,
    );
    await passes(singleFileFields(address, built, `Opt${RUN}`, text, { optimizationUsed: '1', runs: '200' }));
  });

  it('runs: deployed with 1000 runs, submitted with 200', async () => {
    const { address, built, text } = await deployed(`Runs${RUN}`, '0.8.28', { optimizer: true, runs: 1000 });
    const reason = await failureText(singleFileFields(address, built, `Runs${RUN}`, text, { runs: '200' }));
    expect(reason).toContain('the optimizer enabled, 1000 runs (you sent: 200)');
    await passes(singleFileFields(address, built, `Runs${RUN}`, text, { runs: '1000' }));
  });

  it('optimizer: deployed with 1000 runs, submitted with it disabled: the optimizer is the fault, its runs come with it', async () => {
    const { address, built, text } = await deployed(`OptRuns${RUN}`, '0.8.28', { optimizer: true, runs: 1000 });
    const reason = await failureText(singleFileFields(address, built, `OptRuns${RUN}`, text, { optimizationUsed: '0', runs: '200' }));
    expect(reason).toContain('It matches (a full match) with the optimizer enabled, 1000 runs (you sent: disabled).');
    expect(reason).not.toContain('optimizer disabled)');
    const doc = (await (await fetch(`${baseUrl}/receipt/${lastReceipt}.json`)).json()) as { reasonCode: string; diagnosis: { fix: unknown } };
    expect(doc.reasonCode).toBe('wrong_optimizer');
    expect(doc.diagnosis.fix).toEqual({
      changes: [
        { setting: 'optimizer', from: 'disabled', to: 'enabled' },
        { setting: 'runs', from: '200', to: '1000' },
      ],
      matchKind: 'full',
    });
    const page = await (await fetch(`${baseUrl}/receipt/${lastReceipt}`)).text();
    expect(page).toContain('<li>the optimizer enabled, 1000 runs (you sent: disabled)</li>');
    expect(page).toContain('<pre class="source" id="fix-curl">-d optimizationUsed=1 -d runs=1000</pre>');
    await passes(singleFileFields(address, built, `OptRuns${RUN}`, text, { optimizationUsed: '1', runs: '1000' }));
  });

  it('a wrong address: sources sent to an unrelated 10-byte contract say so at once, for one compile and no search', async () => {
    const { address: right, built, text } = await deployed(`Addr${RUN}`, '0.8.28', { optimizer: true, runs: 200 });
    expect(right).toBeTruthy();
    // Returns 42 from any call: 10 bytes of runtime code, none of the contract's functions.
    const { address: wrong } = await deployRaw('0x600a600c600039600a6000f3602a60005260206000f3', ACCOUNT);
    const reason = await failureText(singleFileFields(wrong, built, `Addr${RUN}`, text));
    // value, owner, STEP and set: none is in the code at the address.
    expect(reason).toMatch(
      /The code at this address is not this contract: it holds none of its 4 functions \(10 bytes deployed, \d+ compiled\)\. Check the address\./,
    );
    expect(reason).toContain('None of the contracts of these sources is the code deployed there: no setting was searched.');
    // One compile (of the sources, to look for another contract of them there), then no search:
    // within the 4 compiles that count nothing against the key's daily diagnoses.
    const doc = (await (await fetch(`${baseUrl}/receipt/${lastReceipt}.json`)).json()) as { reasonCode: string; diagnosis: unknown };
    expect(doc).toMatchObject({ reasonCode: 'unrelated_code', diagnosis: { unrelated: true, fix: null, compiles: 1, tried: 0 } });
  });

  it('compiler version: the metadata names 0.8.26, 0.8.28 was asked for', async () => {
    const { address, built, text } = await deployed(`Ver${RUN}`, '0.8.26', { optimizer: false });
    const reason = await failureText(singleFileFields(address, built, `Ver${RUN}`, text, { compilerversion: 'v0.8.28+commit.7893614a' }));
    expect(reason).toContain('The deployed code was compiled with solc 0.8.26 (read from its metadata); you asked for 0.8.28.');
    expect(reason).toContain('compiler v0.8.26+commit.8a97fa7a (you sent: v0.8.28+commit.7893614a)');
    await passes(singleFileFields(address, built, `Ver${RUN}`, text, { compilerversion: 'v0.8.26+commit.8a97fa7a' }));
  });

  it('EVM version: deployed for paris, submitted with the default', async () => {
    const { address, built, text } = await deployed(`Evm${RUN}`, '0.8.28', { optimizer: false, evmVersion: 'paris' });
    const reason = await failureText(singleFileFields(address, built, `Evm${RUN}`, text));
    expect(reason).toContain('EVM version paris (you sent: the compiler default)');
    await passes(singleFileFields(address, built, `Evm${RUN}`, text, { evmversion: 'paris' }));
  });

  it('viaIR: deployed through the IR pipeline, submitted without it', async () => {
    const { address, built, text } = await deployed(`Ir${RUN}`, '0.8.28', { optimizer: true, runs: 200, viaIR: true });
    const reason = await failureText(singleFileFields(address, built, `Ir${RUN}`, text));
    expect(reason).toContain('viaIR enabled (you sent: disabled)');
    await passes(singleFileFields(address, built, `Ir${RUN}`, text, { viaIR: '1' }));
  });

  it('metadata hash: deployed with the default ipfs hash, submitted with bytecodeHash "bzzr1", then "none"', async () => {
    const name = `Hash${RUN}`;
    const { address, built, text } = await deployed(name, '0.8.28', { optimizer: false });
    // Another hash kind gives auxdata of another length: no partial match, a failure.
    for (const sent of ['bzzr1', 'none'] as const) {
      const reason = await failureText(jsonFields(address, built, name, text, { bytecodeHash: sent }));
      expect(reason).toContain(`It matches (a full match) with settings.metadata.bytecodeHash "ipfs" in a standard JSON input (you sent: ${sent}).`);
      const doc = (await (await fetch(`${baseUrl}/receipt/${lastReceipt}.json`)).json()) as {
        reasonCode: string;
        diagnosis: { facts: { hashKind: string }; fix: unknown };
      };
      expect(doc.reasonCode).toBe('wrong_metadata_settings');
      expect(doc.diagnosis.facts.hashKind).toBe('ipfs');
      expect(doc.diagnosis.fix).toEqual({ changes: [{ setting: 'bytecodeHash', from: sent, to: 'ipfs' }], matchKind: 'full' });
    }
    const page = await (await fetch(`${baseUrl}/receipt/${lastReceipt}`)).text();
    // forge: the foundry.toml setting, then a build with it (forge sends the settings of its build), then verify-contract.
    expect(page).toContain(
      `<pre class="source" id="fix-forge"># in foundry.toml, [profile.default]: bytecode_hash = &quot;ipfs&quot;\nforge build\nforge verify-contract ${address.toLowerCase()} ${name}.sol:${name} --chain 31337 --watch</pre>`,
    );
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, jsonFields(address, built, name, text, { bytecodeHash: 'ipfs' }));
    expect(status?.result).toBe('Pass - Verified');
    expect((await verdictOf(String(submit.result), address)).served.MatchKind).toBe('full');
  });

  it('metadata CBOR: deployed with it, submitted with appendCBOR false', async () => {
    const name = `Cbor${RUN}`;
    const { address, built, text } = await deployed(name, '0.8.28', { optimizer: true, runs: 200 });
    const reason = await failureText(jsonFields(address, built, name, text, { appendCBOR: false }));
    expect(reason).toContain('It matches (a full match) with settings.metadata.appendCBOR true in a standard JSON input (you sent: false).');
    const doc = (await (await fetch(`${baseUrl}/receipt/${lastReceipt}.json`)).json()) as { reasonCode: string; diagnosis: { fix: unknown } };
    expect(doc).toMatchObject({
      reasonCode: 'wrong_metadata_settings',
      diagnosis: { fix: { changes: [{ setting: 'appendCBOR', from: 'false', to: 'true' }], matchKind: 'full' } },
    });
    await passes(jsonFields(address, built, name, text));
  });

  it('metadata without a hash (appendCBOR false, bytecodeHash "none"): a default submission passes as a partial match of both codes, and no metadata setting makes it full', async () => {
    for (const [label, metadata, changes] of [
      [
        'NoCbor',
        { appendCBOR: false },
        [
          { setting: 'appendCBOR', from: 'true', to: 'false' },
          { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
        ],
      ],
      ['NoHash', { bytecodeHash: 'none' }, [{ setting: 'bytecodeHash', from: 'ipfs', to: 'none' }]],
    ] as const) {
      const name = `${label}${RUN}`;
      const { address, built, text } = await deployed(name, '0.8.28', { optimizer: false, metadata });
      // Nothing to diagnose: the deployed code has no hash to disagree with. It shows the settings
      // it was built with, and compiled with them the creation code (and so the constructor
      // arguments) is proven too; without a hash in the code the match stays partial.
      const first = await verifyAndWait(apiUrl, apiKey, jsonFields(address, built, name, text));
      expect(first.status?.result).toBe('Pass - Verified');
      const { result, served } = await verdictOf(String(first.submit.result), address);
      expect(result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', metadataSettingsFromCode: changes });
      expect(served.MatchKind).toBe('partial');
      // The same settings given by the submitter prove nothing more.
      const second = await verifyAndWait(apiUrl, apiKey, jsonFields(address, built, name, text, metadata));
      expect(second.status?.result).toBe('Already Verified');
    }
  });

  it('contract name: another contract of the sources is the one deployed', async () => {
    const name = `Named${RUN}`;
    const text = `${source(name)}\ncontract Other${RUN} { uint256 public other = 1; }\n`;
    const built = await build('0.8.28', standardInput({ [`${name}.sol`]: text }), `${name}.sol`, name);
    const { address } = await deployContract(built.abi, built.bytecode, ARGS, ACCOUNT);
    const reason = await failureText(singleFileFields(address, built, `Other${RUN}`, text));
    expect(reason).toContain(`Other${RUN} is not the contract deployed here; ${name} of your sources compiles to the deployed code.`);
    await passes(singleFileFields(address, built, name, text));
  });

  it('constructor arguments: the creation transaction carries others', async () => {
    const { address, built, text } = await deployed(`Args${RUN}`, '0.8.28', { optimizer: false });
    const wrong = encodeAbiParameters([{ type: 'uint256' }], [42n]).slice(2);
    const reason = await failureText(singleFileFields(address, built, `Args${RUN}`, text, { constructorArguements: wrong }));
    expect(reason).toContain(`The creation transaction carries 0x${encodedArgs} (`);
    expect(reason).toContain(`; you sent 0x${wrong}. Or leave the constructor arguments empty: the service reads them from the creation transaction.`);
    expect(reason.split(encodedArgs)).toHaveLength(2);
    await passes(singleFileFields(address, built, `Args${RUN}`, text, { constructorArguements: encodedArgs }));
  });

  it('library: the code calls the library at another address than the form names', async () => {
    const lib = `Share${RUN}`;
    const text = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
library ${lib} {
    function share(uint256 a, uint256 b) external pure returns (uint256) { return a / b; }
}
contract Splits${RUN} {
    function split(uint256 a) external pure returns (uint256) { return ${lib}.share(a, 3); }
}
`;
    const input = standardInput({ [`Splits${RUN}.sol`]: text });
    const library = await build('0.8.28', input, `Splits${RUN}.sol`, lib);
    const { address: libraryAddress } = await deployContract(library.abi, library.bytecode, [], ACCOUNT);
    const user = await build('0.8.28', input, `Splits${RUN}.sol`, `Splits${RUN}`);
    const { address } = await deployContract(user.abi, linkBytecode(user.bytecode, /__\$[0-9a-f]{34}\$__/g, libraryAddress), [], ACCOUNT);
    const wrongAddress = '0x00000000000000000000000000000000000000aa';
    const reason = await failureText(singleFileFields(address, user, `Splits${RUN}`, text, { libraryname1: lib, libraryaddress1: wrongAddress }));
    expect(reason).toContain(`at ${libraryAddress.toLowerCase()}`);
    expect(reason).toMatch(/It matches \(a (full|partial) match\) with library/);
    await passes(singleFileFields(address, user, `Splits${RUN}`, text, { libraryname1: lib, libraryaddress1: libraryAddress }));
  });

  it('flattening: two SPDX lines, a second pragma abicoder and a stale import are dropped, and the file verifies (partial)', async () => {
    const name = `Flat${RUN}`;
    const helper = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
pragma abicoder v2;

library FlatMath${RUN} {
    function twice(uint256 x) internal pure returns (uint256) { return 2 * x + 20313; }
}
`;
    const main = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
pragma abicoder v2;

import "./FlatMath.sol";

contract ${name} {
    function run(uint256 x) external pure returns (uint256) { return FlatMath${RUN}.twice(x); }
}
`;
    const built = await build('0.8.28', standardInput({ 'FlatMath.sol': helper, [`${name}.sol`]: main }), `${name}.sol`, name);
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    // What a naive flattener writes: both files one after the other, headers and import kept.
    const flattened = `${helper}\n${main}`;
    const { submit, status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, name, flattened));
    expect(status?.result).toBe('Pass - Verified');
    const doc = (await (await fetch(`${baseUrl}/receipt/${String(submit.result)}.json`)).json()) as {
      result: { matchKind: string; flatteningRepairs: { line: number; why: string }[] };
    };
    expect(doc.result.matchKind).toBe('partial');
    expect(doc.result.flatteningRepairs.map((r) => [r.line, r.why])).toEqual([
      [9, 'second_spdx_line'],
      [11, 'second_abicoder_pragma'],
      [13, 'missing_import'],
    ]);
    const page = await (await fetch(`${baseUrl}/receipt/${String(submit.result)}`)).text();
    expect(page).toContain('it was verified with these lines removed (a flattened file is a partial match at best)');
    // The JSON keeps a code per dropped line; the page words it.
    expect(page).toContain('(second SPDX licence line)');
    // The source served is the one compiled: those lines blank, every other line as sent.
    const record = (await (await fetch(`${apiUrl}?module=contract&action=getsourcecode&address=${address}&apikey=${apiKey}`)).json()) as {
      result: { SourceCode: string }[];
    };
    const served = record.result[0]!.SourceCode.split('\n');
    const sent = flattened.split('\n');
    expect(served.length).toBe(sent.length);
    expect(served.filter((line, i) => line !== sent[i]).length).toBe(3);
    expect([served[8], served[10], served[12]]).toEqual(['', '', '']);
  });

  it('nothing near matches: the text says where the codes differ; a correct submission meanwhile is not held up', async () => {
    // Baseline: a correct submission on its own.
    const alone = await deployed(`Alone${RUN}`, '0.8.28', { optimizer: false });
    let started = Date.now();
    await passes(singleFileFields(alone.address, alone.built, `Alone${RUN}`, alone.text));
    const aloneMs = Date.now() - started;

    const { address, built } = await deployed(`Far${RUN}`, '0.8.28', { optimizer: false });
    const other = source(`Far${RUN}`, 9); // another constant: no setting makes it match
    const during = await deployed(`During${RUN}`, '0.8.28', { optimizer: false });
    const farStarted = Date.now();
    const failing = verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, `Far${RUN}`, other)).then((answer) => ({
      ...answer,
      ms: Date.now() - farStarted,
    }));
    await new Promise((r) => setTimeout(r, 1500)); // the diagnosis is under way
    started = Date.now();
    await passes(singleFileFields(during.address, during.built, `During${RUN}`, during.text));
    const duringMs = Date.now() - started;
    const { status } = await failing;
    const reason = String(status?.result);
    expect(reason).toMatch(/they first differ at byte \d+: deployed .+; compiled .+\./);
    expect(reason).toMatch(/No setting tried made it match \(\d+ tried, \d+ compiles/);
    expect(reason).not.toContain('It matches');
    // The receipt page shows the two codes side by side at their first difference.
    const page = await (await fetch(`${baseUrl}/receipt/${String((await failing).submit.result)}`)).text();
    expect(page).toContain('<h3>Where the codes differ</h3>');
    expect(page).toMatch(/first difference at byte \d+/);
    expect(page).toContain('No setting within the search made these sources compile to the deployed code.');
    const farDoc = (await (await fetch(`${baseUrl}/receipt/${String((await failing).submit.result)}.json`)).json()) as {
      reasonCode: string;
      diagnosis: { tried: number; compiles: number };
    };
    expect(farDoc.reasonCode).toBe('bytecode_mismatch');
    console.log(
      `diagnosis ${farDoc.reasonCode}: ${(await failing).ms} ms to the verdict, ${farDoc.diagnosis.tried} settings tried, ${farDoc.diagnosis.compiles} compiles`,
    );
    console.log(`correct submission: ${aloneMs} ms alone, ${duringMs} ms while a diagnosis ran`);
  });
});
