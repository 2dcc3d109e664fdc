import { describe, expect, it } from 'vitest';
import type { Address, Hex } from '../../core/types.js';
import type { ChainReader } from '../ports.js';
import { SELECTORS, SLOTS } from './constants.js';
import { detectProxy } from './detectProxy.js';

// The behavioural Safe rule against a scripted chain; test/proxy deploys the real fixtures.

const proxy: Address = '0x1111111111111111111111111111111111111111';
const logic: Address = '0x2222222222222222222222222222222222222222';
const other: Address = '0x3333333333333333333333333333333333333333';
/** PUSH1 0 PUSH1 0 DELEGATECALL STOP: can delegate, names no selector, matches no shape. */
const DELEGATING: Hex = '0x60006000f400';
const word = (address: string, top = ''): Hex => `0x${top.padEnd(24, '0')}${address.slice(2)}`;

interface World {
  code?: Hex;
  slotZero?: Hex;
  /** Answers by selector (no 0x); anything else reverts. */
  answers?: Record<string, Hex>;
  storage?: Record<Hex, Hex>;
}

function scriptedChain(world: World): { chain: ChainReader; called: string[] } {
  const called: string[] = [];
  const codes: Record<Address, Hex> = { [proxy]: world.code ?? DELEGATING, [logic]: '0x6000', [other]: '0x6000' };
  const storage: Record<Hex, Hex> = { ...world.storage, [SLOTS.zero]: world.slotZero ?? word(logic) };
  const chain: ChainReader = {
    chainId: async () => 31337,
    getBlockNumber: async () => 7n,
    findCreation: async () => null,
    getCode: async (address) => codes[address] ?? '0x',
    getStorageAt: async (address, slot) => (address === proxy ? (storage[slot] ?? SLOTS.zero) : SLOTS.zero),
    call: async (to, data) => {
      if (to !== proxy) return null;
      const selector = data.slice(2, 10);
      called.push(selector);
      return world.answers?.[selector] ?? null;
    },
  };
  return { chain, called };
}

describe('a Safe proxy whose code does not hold the masterCopy() selector', () => {
  it('is found when masterCopy() answers the address in slot 0 (top bytes masked, as the proxy does)', async () => {
    const { chain, called } = scriptedChain({
      slotZero: word(logic, 'ff'.repeat(12)),
      answers: { [SELECTORS.masterCopy]: word(logic) },
    });
    expect(await detectProxy(chain, proxy)).toMatchObject({ found: true, pattern: 'safe', implementation: logic });
    expect(called).toContain(SELECTORS.unknownProbe);
  });

  it.each<[string, World]>([
    ['masterCopy() answers another contract than slot 0 holds', { slotZero: word(other), answers: { [SELECTORS.masterCopy]: word(logic) } }],
    ['the answer is longer than one word', { answers: { [SELECTORS.masterCopy]: `${word(logic)}${'00'.repeat(32)}` } }],
    ['the answer has dirty top bytes', { answers: { [SELECTORS.masterCopy]: word(logic, '01') } }],
    ['the answer is the proxy itself', { slotZero: word(proxy), answers: { [SELECTORS.masterCopy]: word(proxy) } }],
    ['an unknown selector gets the same address', { answers: { [SELECTORS.masterCopy]: word(logic), [SELECTORS.unknownProbe]: word(logic) } }],
    [
      'slot 0 names an account without code',
      {
        slotZero: word('0x4444444444444444444444444444444444444444'),
        answers: { [SELECTORS.masterCopy]: word('0x4444444444444444444444444444444444444444') },
      },
    ],
  ])('is not found when %s', async (_label, world) => {
    const { chain } = scriptedChain(world);
    expect(await detectProxy(chain, proxy)).toMatchObject({ found: false, reason: 'not_a_proxy' });
  });

  it('is not asked without a DELEGATECALL in the code', async () => {
    const { chain, called } = scriptedChain({ code: '0x6000600055', answers: { [SELECTORS.masterCopy]: word(logic) } });
    expect(await detectProxy(chain, proxy)).toMatchObject({ found: false, reason: 'not_a_proxy' });
    expect(called).toEqual([]);
  });

  it('is not asked when a slot already names the implementation', async () => {
    const { chain, called } = scriptedChain({
      storage: { [SLOTS.eip1967Implementation]: word(other) },
      answers: { [SELECTORS.masterCopy]: word(logic) },
    });
    expect(await detectProxy(chain, proxy)).toMatchObject({ found: true, pattern: 'eip1967', implementation: other });
    expect(called).not.toContain(SELECTORS.masterCopy);
  });
});
