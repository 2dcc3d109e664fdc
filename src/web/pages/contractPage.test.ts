import { describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../core/types.js';
import { noTransformations, type StoredTransformations } from '../../store/matchFacts.js';
import type { ProxyRecord } from '../../store/proxyRecords.js';
import type { VerifiedContract } from '../../store/verifiedContracts.js';
import { publishedFiles, type StorageValues } from '../../useCases/index.js';
import type { ProxyPattern } from '../../verify/index.js';
import { contractPage } from './contractPage.js';

const EVIL = `"'><img src=x onerror=alert(1)></script><script>alert(2)</script>`;
const ADDRESS = '0x00000000000000000000000000000000000000c0' as Address;
const IMPL = '0x00000000000000000000000000000000000000c1' as Address;

function contract(overrides: Partial<VerifiedContract> = {}): VerifiedContract {
  const abi = [
    { type: 'function', name: 'get', inputs: [], outputs: [{ name: EVIL, type: 'string' }], stateMutability: 'view' },
    { type: 'function', name: 'put', inputs: [{ name: EVIL, type: 'string' }], outputs: [], stateMutability: 'nonpayable' },
  ];
  return {
    address: ADDRESS,
    contractName: 'Thing',
    sourcePath: 'b.sol',
    compilerVersion: 'v0.8.28+commit.7893614a',
    codeFormat: 'solidity-standard-json-input',
    language: 'Solidity',
    sources: [
      { path: 'a.sol', content: `// ${EVIL}` },
      { path: 'b.sol', content: 'contract Thing {}' },
    ],
    unpublishedSources: 0,
    settings: {},
    abi: JSON.stringify(abi),
    metadata: '',
    optimizationUsed: false,
    runs: 200,
    evmVersion: EVIL,
    viaIR: false,
    constructorArguments: '',
    libraries: [{ name: EVIL, address: '0x00000000000000000000000000000000000000c2' }],
    licenseType: 3,
    matchKind: 'partial',
    creationMatch: null,
    creationCompared: false,
    runtimeMatch: 'partial',
    transformations: noTransformations(),
    swarmSource: '',
    method: 'submitted',
    similarTo: null,
    receipt: null,
    verifiedAt: Date.UTC(2025, 0, 2, 3, 4, 5),
    compiledContractId: 'c'.repeat(64),
    deployment: null,
    ...overrides,
  };
}

const proxy: ProxyRecord = {
  address: ADDRESS,
  implementation: IMPL,
  finalImplementation: IMPL,
  // A stored record is checked when it is read; the page still escapes whatever it is given.
  pattern: EVIL as ProxyPattern,
  detection: { chain: [{ address: ADDRESS, implementation: IMPL, pattern: 'eip1967' }], conflicts: [], admin: EVIL as Address },
  blockNumber: 12,
  checkedAt: Date.UTC(2025, 0, 3),
  receipt: null,
};

const base = { address: ADDRESS, chainId: 31337, baseUrl: 'http://127.0.0.1:8080', hasCode: true };

describe('contractPage', () => {
  it('escapes every stored text it shows', () => {
    const page = contractPage({ ...base, contract: contract(), proxy, implementation: null }).value;
    expect(page).not.toMatch(/<img|<script>alert/);
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;/script&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    // the one script is the explorer's own
    expect(page.match(/<script/g)).toHaveLength(1);
  });

  it("shows the metadata settings compiled when they are not solc's defaults, escaped", () => {
    const row = (settings: Record<string, unknown>) =>
      /<dt>Metadata<\/dt><dd>[^<]*<\/dd>/.exec(contractPage({ ...base, contract: contract({ settings }), proxy: null, implementation: null }).value)?.[0] ??
      null;
    expect(row({})).toBeNull();
    expect(row({ metadata: { bytecodeHash: 'ipfs', useLiteralContent: true } })).toBeNull();
    expect(row({ metadata: { bytecodeHash: 'none' } })).toBe('<dt>Metadata</dt><dd>bytecodeHash none</dd>');
    expect(row({ metadata: { appendCBOR: false, bytecodeHash: 'none' } })).toBe('<dt>Metadata</dt><dd>no CBOR (appendCBOR false)</dd>');
    expect(row({ metadata: { bytecodeHash: EVIL } })).not.toContain('<img');
  });

  it('shows the contract file first, then the other sources', () => {
    expect(publishedFiles(contract()).map((f) => f.path)).toEqual(['b.sol', 'a.sol']);
  });

  it('explains a partial match and offers Read/Write; no proxy tabs while the implementation is unverified', () => {
    const otherMetadata: StoredTransformations = {
      applied: { runtime: [{ type: 'replace', reason: 'cborAuxdata', offset: 2, id: '1' }], creation: [] },
      values: { runtime: { cborAuxdata: { '1': `0x${'a2'.repeat(4)}0004` } }, creation: {} },
    };
    const page = contractPage({
      ...base,
      contract: contract({ transformations: otherMetadata }),
      proxy,
      implementation: null,
      compiledCode: { runtime: `6080${'00'.repeat(6)}`, creation: '' },
    }).value;
    expect(page).toContain('Partial match: the metadata hash on chain differs from the compiled one');
    // The replaced auxdata is marked in the code (its length is the value's, which the transformation does not name).
    expect(page).toContain(
      `<mark class="t-cborAuxdata" title="metadata hash (CBOR auxdata) 1 at byte 2; on chain: 0x${'a2'.repeat(4)}0004">000000000000</mark>`,
    );
    expect(page).not.toContain('Identical to the code on chain');
    expect(page).toContain('href="#read"');
    expect(page).toContain('href="#write"');
    expect(page).not.toContain('href="#read-proxy"');
    expect(page).toContain(`The implementation ${IMPL} is not verified here`);
    expect(page).toContain('Read at block</dt><dd>12</dd>');
    expect(page).toContain('2025-01-03 00:00:00 UTC');
  });

  it('names each immutable value nothing proves, and says why', () => {
    const guardian: Hex = `0x${'00'.repeat(12)}${'ab'.repeat(20)}`;
    const limit: Hex = `0x${'ff'.repeat(32)}`;
    const transformations: StoredTransformations = {
      applied: {
        runtime: [
          { type: 'replace', reason: 'immutable', offset: 1, id: '3' },
          { type: 'replace', reason: 'immutable', offset: 40, id: '5' },
        ],
        creation: [],
      },
      values: { runtime: { immutables: { '3': guardian, '5': limit } }, creation: {} },
    };
    const page = contractPage({
      ...base,
      contract: contract({ transformations, runtimeMatch: 'full', creationCompared: true }),
      proxy: null,
      implementation: null,
    }).value;
    expect(page).toContain(
      'Partial match: 2 immutable values were taken from the chain and nothing proves them (the creation code was found but did not match',
    );
    expect(page).toContain(`immutable 3: ${guardian} <span class="muted">(address 0x${'ab'.repeat(20)})</span>`);
    expect(page).toContain(`immutable 5: ${limit}`);
    expect(page).not.toContain('byte for byte');
    // With a matched creation code the same values are proven: nothing is listed.
    const proven = contractPage({
      ...base,
      contract: contract({ transformations, matchKind: 'full', runtimeMatch: 'full', creationMatch: 'full' }),
      proxy: null,
      implementation: null,
    }).value;
    expect(proven).toContain('Full match: the deployed code is byte for byte');
    expect(proven).not.toContain('immutable 3:');
  });

  it('says when the deployed code has no metadata hash, and when submitted files are not published', () => {
    const page = contractPage({ ...base, contract: contract({ unpublishedSources: 2 }), proxy: null, implementation: null }).value;
    expect(page).toContain('Partial match: the deployed code carries no metadata hash');
    expect(page).toContain('also carried 2 files that this contract does not use');
  });

  it('offers Read/Write as Proxy on an unverified proxy whose implementation is verified', () => {
    const page = contractPage({ ...base, contract: null, proxy, implementation: contract({ address: IMPL }) }).value;
    expect(page).toContain('Not verified');
    expect(page).toContain('href="#read-proxy"');
    expect(page).toContain('data-proxy="1" data-signature="get()"');
    expect(page).toContain('How to verify');
    expect(page).not.toContain('Storage as Proxy');

    const storageValues: StorageValues = {
      blockNumber: 7n,
      problem: null,
      timeoutMs: 2000,
      unreadSlots: 3,
      own: { rows: null, namespaces: [] },
      asProxy: {
        implementation: IMPL,
        contractName: 'Thing',
        section: { rows: [{ name: 'owner', type: 'address', slot: 0n, offset: 0, depth: 0, value: EVIL }], namespaces: [] },
      },
    };
    const withStorage = contractPage({ ...base, contract: null, proxy, implementation: contract({ address: IMPL }), storageValues }).value;
    expect(withStorage).toContain('<a href="#storage" aria-selected="false">Storage as Proxy</a>');
    expect(withStorage).toContain('<section class="tab-panel" id="storage">');
    expect(withStorage).toContain('Values read at block <span class="mono" id="storage-block">7</span>; 3 more slots were not read');
    expect(withStorage).toContain('<tr data-name="owner">');
    expect(withStorage).not.toMatch(/<img|<script>alert/);
  });

  it('says when an unverified address has no code, and offers nothing to verify there', () => {
    const page = contractPage({ ...base, contract: null, proxy: null, implementation: null, hasCode: false }).value;
    expect(page).toContain('There is no contract code at this address');
    expect(page).not.toContain('How to verify');
    expect(page).not.toContain(`-d contractaddress=${ADDRESS}`);
    expect(page).not.toContain('Verify &amp; Publish this contract');
  });

  it('shows how to verify at an address with code', () => {
    const page = contractPage({ ...base, contract: null, proxy: null, implementation: null, hasCode: true }).value;
    expect(page).toContain('How to verify');
    expect(page).toContain(`-d contractaddress=${ADDRESS}`);
    expect(page).toContain('http://127.0.0.1:8080/api');
  });

  it('shows the storage layout: slot, offset, type and name, escaped; and why there is none when there is none', () => {
    const layouts = {
      storageLayout: {
        layout: {
          storage: [
            { astId: 1, contract: `b.sol:${EVIL}`, label: 'owner', offset: 0, slot: '0', type: 't_address' },
            { astId: 2, contract: 'b.sol:Thing', label: EVIL, offset: 20, slot: '0', type: 't_bool' },
            { astId: 3, contract: 'b.sol:Thing', label: 'balances', offset: 0, slot: '1', type: 't_mapping(t_address,t_uint256)' },
          ],
          types: {
            t_address: { encoding: 'inplace', label: 'address', numberOfBytes: '20' },
            t_bool: { encoding: 'inplace', label: 'bool', numberOfBytes: '1' },
            't_mapping(t_address,t_uint256)': { encoding: 'mapping', label: 'mapping(address => uint256)', numberOfBytes: '32' },
          },
        },
        missing: null,
      },
      transientStorageLayout: { layout: null, missing: { reason: 'compiler_too_old' as const, since: '0.8.27' } },
    };
    const page = contractPage({ ...base, contract: contract(), proxy: null, implementation: null, layouts }).value;
    expect(page).toContain('href="#storage"');
    expect(page).toContain(`href="/address/${ADDRESS}/storage-layout.json"`);
    expect(page).toContain('<tr><td class="mono">0</td><td class="mono">20</td><td class="mono">bool</td>');
    expect(page).toContain('<td class="mono">mapping(address =&gt; uint256)</td><td class="mono">balances</td>');
    expect(page).not.toMatch(/<img|<script>alert/);
    expect(page).not.toContain('Transient storage layout');

    const old = contractPage({
      ...base,
      contract: contract(),
      proxy: null,
      implementation: null,
      layouts: {
        storageLayout: { layout: null, missing: { reason: 'compiler_too_old', since: '0.5.13' } },
        transientStorageLayout: { layout: null, missing: { reason: 'compiler_too_old', since: '0.8.27' } },
      },
    }).value;
    expect(old).toContain('No storage layout (not available: solc before 0.5.13).');
    // No layouts read: no tab.
    expect(contractPage({ ...base, contract: contract(), proxy: null, implementation: null }).value).not.toContain('href="#storage"');
  });

  it('shows the values read, the block, namespaces and the proxy view, escaped; and a note instead of values when the node was slow', () => {
    const layouts = {
      storageLayout: {
        layout: {
          storage: [{ astId: 1, contract: 'b.sol:Thing', label: 'name', offset: 0, slot: '0', type: 't_string_storage' }],
          types: { t_string_storage: { encoding: 'bytes', label: 'string', numberOfBytes: '32' } },
        },
        missing: null,
      },
      transientStorageLayout: { layout: null, missing: { reason: 'compiler_too_old' as const, since: '0.8.27' } },
    };
    const row = (name: string, value: string | null, depth = 0) => ({ name, type: 'string', slot: 0n, offset: 0, depth, value });
    const namespace = { id: EVIL, struct: 'S', slot: 2n ** 255n, rows: [row('member', '7')], unknownType: null };
    const storageValues: StorageValues = {
      blockNumber: 1234n,
      problem: null,
      timeoutMs: 2000,
      unreadSlots: 0,
      own: { rows: [row('name', JSON.stringify(EVIL)), row(`name.${EVIL}`, EVIL, 1)], namespaces: [namespace] },
      asProxy: {
        implementation: IMPL,
        contractName: EVIL,
        section: { rows: [row('owner', '0xabc')], namespaces: [{ ...namespace, rows: null, unknownType: EVIL }] },
      },
    };
    const page = contractPage({ ...base, contract: contract(), proxy: null, implementation: null, layouts, storageValues }).value;
    expect(page).toContain('Values read at block <span class="mono" id="storage-block">1234</span>');
    expect(page).toContain('<th>Value</th>');
    expect(page).toContain('<td class="mono storage-value">&quot;\\&quot;&#39;&gt;&lt;img');
    expect(page).toContain('class="mono depth-1"');
    expect(page).toContain('Namespaced storage (ERC-7201)');
    expect(page).toContain(`(slot 0x8${'0'.repeat(63)})`);
    expect(page).toContain('Storage as proxy');
    expect(page).toContain(`href="/address/${IMPL}"`);
    expect(page).toContain('cannot be laid out from the sources');
    expect(page).not.toMatch(/<img|<script>alert/);

    const slow = contractPage({
      ...base,
      contract: contract(),
      proxy: null,
      implementation: null,
      layouts,
      storageValues: { ...storageValues, blockNumber: null, problem: 'timed_out', own: { rows: [row('name', null)], namespaces: [] }, asProxy: null },
    }).value;
    expect(slow).toContain('did not answer within 2 s, so the layout is shown without values');
    expect(slow).toContain('<td class="mono depth-0">name</td><td class="muted storage-value"></td>');
    expect(slow).not.toContain('Values read at block');
  });
});
