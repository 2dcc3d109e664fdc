/**
 * Contracts deployed without a metadata hash (bytecodeHash "none"; no CBOR at all with
 * appendCBOR false), submitted as a single file with the default settings: the deployed code
 * shows the metadata settings it was built with, and compiled with them its creation code
 * matches too, which proves the constructor arguments. The record is the input that matched.
 */
import { encodeAbiParameters } from 'viem';
import { describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { type BuildOptions, build, singleFileFields, standardInput } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('api/hashlessMetadata');
const { apiUrl, apiKey, baseUrl } = sharedService();
const RUN = Date.now();

/** Each case's code differs (TAG), so none is a copy of another verified one. */
const source = (name: string, tag: number) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;

/// Deployed without a metadata hash (${RUN}).
contract ${name} {
    uint256 public constant TAG = ${tag};
    string public label;
    uint256 public limit;
    address public immutable owner;

    constructor(string memory _label, uint256 _limit) {
        label = _label;
        limit = _limit;
        owner = msg.sender;
    }

    function setLimit(uint256 _limit) external {
        require(msg.sender == owner, "owner");
        limit = _limit;
    }
}
`;

const ARGS = [`hashless ${RUN}`, 77n] as const;
const ENCODED = encodeAbiParameters([{ type: 'string' }, { type: 'uint256' }], ARGS).slice(2);

interface Receipt {
  result: { matchKind: string; creationMatch: string | null; runtimeMatch: string; metadataSettingsFromCode?: unknown };
}

async function sourceRecord(address: string): Promise<Record<string, string>> {
  const env = await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey });
  return env.result[0] as Record<string, string>;
}

type Change = { setting: string; from: string; to: string };
const cases: {
  label: string;
  version: string;
  metadata: NonNullable<BuildOptions['metadata']>;
  changes: Change[];
  compiled: NonNullable<BuildOptions['metadata']>;
  shown: string;
}[] = [
  {
    label: 'NoHash',
    version: '0.8.10',
    metadata: { bytecodeHash: 'none' },
    changes: [{ setting: 'bytecodeHash', from: 'ipfs', to: 'none' }],
    compiled: { bytecodeHash: 'none' },
    shown: 'bytecodeHash none',
  },
  {
    label: 'NoCbor',
    version: '0.8.18',
    metadata: { appendCBOR: false },
    // Without CBOR there is no hash: solc takes appendCBOR false only with bytecodeHash none or unset.
    changes: [
      { setting: 'appendCBOR', from: 'true', to: 'false' },
      { setting: 'bytecodeHash', from: 'ipfs', to: 'none' },
    ],
    compiled: { appendCBOR: false, bytecodeHash: 'none' },
    shown: 'no CBOR (appendCBOR false)',
  },
];

describe('a contract deployed without a metadata hash, submitted as a single file with the default settings', () => {
  for (const [i, c] of cases.entries()) {
    it(`${c.label} (solc ${c.version}, ${JSON.stringify(c.metadata)}): creation code matched, constructor arguments proven, the settings that matched recorded`, async () => {
      const name = `${c.label}${RUN}`;
      const text = source(name, i + 1);
      const built = await build(c.version, standardInput({ [`${name}.sol`]: text }, { optimizer: true, runs: 200, metadata: c.metadata }), `${name}.sol`, name);
      const { address } = await deployContract(built.abi, built.bytecode, ARGS, ACCOUNT);

      // The single file says nothing of metadata settings: solc's defaults (an ipfs hash) are what it asks for.
      const { submit, status } = await verifyAndWait(apiUrl, apiKey, singleFileFields(address, built, name, text));
      expect(status?.result).toBe('Pass - Verified');
      const receipt = (await (await fetch(`${baseUrl}/receipt/${String(submit.result)}.json`)).json()) as Receipt;
      // No metadata hash: nothing proves the metadata, so partial, but of both codes.
      expect(receipt.result).toMatchObject({ matchKind: 'partial', runtimeMatch: 'partial', creationMatch: 'partial', metadataSettingsFromCode: c.changes });

      const record = await sourceRecord(address);
      expect(record).toMatchObject({
        MatchKind: 'partial',
        CreationMatch: 'partial',
        RuntimeMatch: 'partial',
        ConstructorArguments: ENCODED,
        SwarmSource: '',
        OptimizationUsed: '1',
        Runs: '200',
      });
      // Served as the standard JSON input that matched: the single file, with the code's metadata settings.
      expect(record.SourceCode!.startsWith('{{') && record.SourceCode!.endsWith('}}')).toBe(true);
      const served = JSON.parse(record.SourceCode!.slice(1, -1)) as { sources: Record<string, { content: string }>; settings: Record<string, unknown> };
      expect(served.sources).toEqual({ [`${name}.sol`]: { content: text } });
      expect(served.settings).toEqual({ optimizer: { enabled: true, runs: 200 }, metadata: c.compiled });
      expect(record.ContractName).toBe(name);
      expect(record.ContractFileName).toBe(`${name}.sol`);

      // The stored compiler settings, as the explorer offers them, and the page.
      const download = (await (await fetch(`${baseUrl}/address/${address}/standard-input.json`)).json()) as { settings: Record<string, unknown> };
      expect(download.settings).toEqual(served.settings);
      const page = await (await fetch(`${baseUrl}/address/${address}`)).text();
      expect(page).toContain(`<dt>Metadata</dt><dd>${c.shown}</dd>`);
      const receiptPage = await (await fetch(`${baseUrl}/receipt/${String(submit.result)}`)).text();
      expect(receiptPage).toContain('compiled with the metadata settings the code shows');
    });
  }

  it('a code with its metadata hash is not compiled again: a comment edited is a partial match of both codes as before', async () => {
    const name = `Hashed${RUN}`;
    const text = source(name, 100);
    const built = await build('0.8.10', standardInput({ [`${name}.sol`]: text }, { optimizer: true, runs: 200 }), `${name}.sol`, name);
    const { address } = await deployContract(built.abi, built.bytecode, ARGS, ACCOUNT);
    const { submit, status } = await verifyAndWait(
      apiUrl,
      apiKey,
      singleFileFields(address, built, name, text.replace('Deployed without', 'Deployed, edited, without')),
    );
    expect(status?.result).toBe('Pass - Verified');
    const receipt = (await (await fetch(`${baseUrl}/receipt/${String(submit.result)}.json`)).json()) as Receipt;
    expect(receipt.result).toMatchObject({ matchKind: 'partial', creationMatch: 'partial' });
    expect(receipt.result.metadataSettingsFromCode).toBeUndefined();
    const record = await sourceRecord(address);
    expect(record.SourceCode!.startsWith('// SPDX')).toBe(true);
    expect(record.ConstructorArguments).toBe(ENCODED);
  });
});
