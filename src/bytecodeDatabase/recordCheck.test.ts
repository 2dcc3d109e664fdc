import { pino } from 'pino';
import { keccak256 } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestStores } from '../../test/helpers/dialects.js';
import { sampleVerifiedContract, saveSampleDocuments } from '../../test/helpers/testDatabase.js';
import { SolproofError } from '../core/errors.js';
import type { Address, Hex } from '../core/types.js';
import { getChainState } from '../store/chainState.js';
import { recordDeployment } from '../store/deployments.js';
import { getVerifiedContract, insertVerifiedContract, listReplacedVerifications } from '../store/verifiedContracts.js';
import { ChainGeneration, GENERATION_STATE } from './chainGeneration.js';
import { createRecordCheck, type RecordCheckOptions } from './recordCheck.js';

const addr = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address;
const CODE = '0x6001600155' as Hex;
const OTHER_CODE = '0x6002600255' as Hex;

/** The node's side: code per address and a genesis hash, each changed at will; a failing or silent node on demand. */
class FakeChain {
  code = new Map<string, Hex>();
  genesis: Hex = `0x${'aa'.repeat(32)}`;
  codeReads = 0;
  mode: 'answers' | 'fails' | 'silent' = 'answers';

  async getCode(address: Address): Promise<Hex> {
    this.codeReads++;
    if (this.mode === 'fails')
      throw new SolproofError('chain_unavailable', { method: 'eth_getCode', reason: 'unreachable', nodeMessage: 'connect ECONNREFUSED' });
    if (this.mode === 'silent') return new Promise(() => undefined);
    await new Promise((r) => setTimeout(r, 5));
    return this.code.get(address.toLowerCase()) ?? '0x';
  }

  async blockHash(n: bigint): Promise<Hex | null> {
    if (this.mode !== 'answers')
      throw new SolproofError('chain_unavailable', { method: 'eth_getBlockByNumber', reason: 'unreachable', nodeMessage: 'connect ECONNREFUSED' });
    return n === 0n ? this.genesis : null;
  }
}

describe('the check that a record still describes the code at its address', () => {
  const stores = useTestStores('sqlite');
  const chain = new FakeChain();
  let generation: ChainGeneration;
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    await saveSampleDocuments(stores.store.db);
    generation = new ChainGeneration(stores.store.db, chain);
  });

  /** A contract holding CODE at `address`, verified on that code. */
  const verified = async (address: Address): Promise<void> => {
    chain.code.set(address, CODE);
    const deploymentId = await recordDeployment(stores.store.db, {
      address,
      generation: await generation.current(),
      transactionHash: null,
      blockNumber: 1,
      creator: null,
      factory: null,
      creationCodeHash: null,
      runtimeCodeHash: keccak256(CODE),
      runtimeFingerprint: 'fp',
    });
    await insertVerifiedContract(stores.store.db, sampleVerifiedContract(address, { deploymentId }));
  };
  const check = (options: Partial<RecordCheckOptions> = {}) =>
    createRecordCheck({ db: stores.store.db, chain, generation, logger, watchResets: false, ...options });
  const served = async (address: Address) => (await getVerifiedContract(stores.store.db, address)) !== null;

  it('reads the code once per window per address, however many reads ask at once', async () => {
    const address = addr(1);
    await verified(address);
    const records = check({ windowMs: 60_000 });
    const before = chain.codeReads;
    expect(await Promise.all(Array.from({ length: 20 }, () => records.check(address)))).toEqual(Array(20).fill(false));
    expect(await records.check(address)).toBe(false);
    expect(await records.checkListed([address, address])).toBe(false);
    expect(chain.codeReads - before).toBe(1);
    expect(await served(address)).toBe(true);
    // An address without a record asks the node nothing.
    await records.check(addr(2));
    expect(chain.codeReads - before).toBe(1);
  });

  it('takes off a record whose address holds other code, keeping it in the history; with no window, at the next read', async () => {
    const address = addr(3);
    await verified(address);
    const records = check({ windowMs: 0 });
    expect(await records.check(address)).toBe(false);
    chain.code.set(address, OTHER_CODE);
    expect(await records.check(address)).toBe(true);
    expect(await served(address)).toBe(false);
    expect(await listReplacedVerifications(stores.store.db, address)).toMatchObject([{ reason: 'code_changed' }]);
  });

  it('serves the record as it is when the node fails or does not answer, and asks again after the window', async () => {
    const address = addr(4);
    await verified(address);
    chain.code.set(address, OTHER_CODE);
    const records = check({ windowMs: 0, waitMs: 50 });
    chain.mode = 'fails';
    expect(await records.check(address)).toBe(false);
    chain.mode = 'silent';
    expect(await records.check(address)).toBe(false);
    expect(await served(address)).toBe(true);
    chain.mode = 'answers';
    const fresh = check({ windowMs: 0 });
    expect(await fresh.check(address)).toBe(true);
    expect(await served(address)).toBe(false);
  });

  it('list pages check within their budget of node reads; rows past it are checked when read', async () => {
    const rows = [addr(10), addr(11), addr(12)];
    for (const row of rows) await verified(row);
    for (const row of rows) chain.code.set(row, '0x');
    const records = check({ windowMs: 60_000, listChecksPerSecond: 2 });
    expect(await records.checkListed(rows)).toBe(true);
    expect(await Promise.all(rows.map(served))).toEqual([false, false, true]);
    expect(await records.check(rows[2]!)).toBe(true);
  });

  it('nobody following the chain, a read notices a chain restarted from genesis: a new generation, every old record off', async () => {
    const [one, two] = [addr(20), addr(21)];
    await verified(one);
    await verified(two);
    const previous = await getChainState(stores.store.db, GENERATION_STATE);
    chain.genesis = `0x${'bb'.repeat(32)}`;
    // Same code at `one` on the new chain: its record is of the old chain all the same.
    const records = check({ windowMs: 60_000, watchResets: true });
    expect(await records.check(one)).toBe(false);
    expect(await getChainState(stores.store.db, GENERATION_STATE)).toBe(chain.genesis);
    expect(previous).not.toBe(chain.genesis);
    expect([await served(one), await served(two)]).toEqual([false, false]);
    expect(await listReplacedVerifications(stores.store.db, two)).toMatchObject([{ reason: 'chain_reset' }]);
  });

  it('with the chain followed, a record whose code is gone because the chain restarted says so in the history', async () => {
    generation.invalidate();
    const address = addr(30);
    await verified(address);
    chain.genesis = `0x${'cc'.repeat(32)}`;
    chain.code.set(address, OTHER_CODE);
    const records = check({ windowMs: 0 });
    expect(await records.check(address)).toBe(true);
    expect(await listReplacedVerifications(stores.store.db, address)).toMatchObject([{ reason: 'chain_reset' }]);
    // The follower starts the new generation: a read does not.
    expect(await getChainState(stores.store.db, GENERATION_STATE)).not.toBe(chain.genesis);
  });
});
