import { describe, expect, it } from 'vitest';
import type { Address } from '../../core/types.js';
import type { UpgradeCheck } from '../../useCases/index.js';
import { upgradeCheckPage } from './upgradeCheckPage.js';

const EVIL = `"'><img src=x onerror=alert(1)></script><script>alert(2)</script>`;
const PROXY = '0x00000000000000000000000000000000000000a0' as Address;

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
