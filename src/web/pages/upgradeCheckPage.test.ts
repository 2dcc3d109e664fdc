import { describe, expect, it } from 'vitest';
import type { Address } from '../../core/types.js';
import type { UpgradeCheck } from '../../useCases/index.js';
import { upgradeCheckPage } from './upgradeCheckPage.js';

const EVIL = `"'><img src=x onerror=alert(1)></script><script>alert(2)</script>`;
const PROXY = '0x00000000000000000000000000000000000000a0' as Address;
const V1 = '0x00000000000000000000000000000000000000a1' as Address;
const V2 = '0x00000000000000000000000000000000000000a2' as Address;
const CANDIDATE = '0x00000000000000000000000000000000000000c1' as Address;

function check(overrides: Partial<UpgradeCheck> = {}): UpgradeCheck {
  const contract = (address: Address | null, name: string) => ({
    address,
    contractName: name,
    fullyQualifiedName: `${EVIL}.sol:${name}`,
    compilerVersion: EVIL,
  });
  return {
    proxy: PROXY,
    pattern: 'eip1967',
    beacon: null,
    blockNumber: 12n,
    currentImplementation: contract('0x00000000000000000000000000000000000000a1', 'BoxV1'),
    against: null,
    history: [
      { implementation: V1, blockNumber: 5, transactionHash: `0x${'1'.repeat(64)}`, verified: true, contractName: EVIL, hasLayout: true },
      { implementation: V2, blockNumber: 9, transactionHash: `0x${'2'.repeat(64)}`, verified: false, contractName: null, hasLayout: false },
    ],
    candidate: contract(null, 'BoxV2'),
    compatible: false,
    incompatibilities: [{ kind: 'insert', variable: 'x', before: 'owner', where: `${EVIL}:3`, explanation: EVIL }],
    namespaces: [`erc7201:${EVIL}`],
    abiDiff: { added: [{ kind: 'function', signature: `${EVIL}()` }], removed: [], changed: [{ kind: 'event', signature: 'E()', changes: [EVIL] }] },
    sourceDiff: {
      added: [EVIL],
      removed: [],
      unchanged: 1,
      truncated: true,
      changed: [
        { path: EVIL, diff: `+${EVIL}` },
        { path: 'big.sol', diff: null },
      ],
    },
    ...overrides,
  };
}

describe('the upgrade check page', () => {
  it('words the verdict, names each variable, and escapes everything it shows', () => {
    const page = upgradeCheckPage({ chainId: 31337, proxy: PROXY, given: EVIL, answer: { ok: true, check: check() } }).value;
    expect(page).toContain('Not compatible: 1 storage layout change breaks');
    expect(page).toContain('inserted &#96;x&#96; before &#96;owner&#96;');
    expect(page).toContain('the submitted input');
    expect(page).toContain('Diff left out');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;script&gt;alert(2)&lt;/script&gt;');
  });

  it("the proxy's history: a row per implementation, linking to its page, its layout and a check against it", () => {
    const page = upgradeCheckPage({
      chainId: 31337,
      proxy: PROXY,
      given: CANDIDATE,
      answer: {
        ok: true,
        check: check({
          candidate: { address: CANDIDATE, contractName: 'BoxV3', fullyQualifiedName: 'Box.sol:BoxV3', compilerVersion: 'v0.8.28' },
          against: V1,
        }),
      },
    }).value;
    expect(page).toContain('id="history"');
    expect(page).toContain(`href="/address/${V1}/storage-layout.json"`);
    expect(page).not.toContain(`href="/address/${V2}/storage-layout.json"`);
    expect(page).toContain(`href="/address/${PROXY}/upgrade-check?implementation=${CANDIDATE}&amp;against=${V2}"`);
    expect(page).toContain(`&amp;implementation=${CANDIDATE}&amp;against=${V1}">checkupgrade</a>`);
    expect(page).toContain('Compared with (earlier implementation)');
    expect(page).toContain('not verified');
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
  });

  it('a form alone without a candidate; a refusal in words', () => {
    const empty = upgradeCheckPage({ chainId: 31337, proxy: PROXY, given: '', answer: null }).value;
    expect(empty).toContain(`action="/address/${PROXY}/upgrade-check"`);
    expect(empty).not.toContain('id="verdict"');
    const refused = upgradeCheckPage({
      chainId: 31337,
      proxy: PROXY,
      given: PROXY,
      answer: { ok: false, refusal: { code: 'not_verified', side: 'current', address: '0x00000000000000000000000000000000000000a1' } },
    }).value;
    expect(refused).toContain('The proxy&#39;s current implementation 0x00000000000000000000000000000000000000a1 is not verified');
  });
});
