/**
 * Contracts found on the chain: where and by whom each was created and the hashes of its
 * code, per chain generation (a devnet restarted from genesis is a new generation).
 */

import { createHash } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { knownAddress } from '../core/hex.js';
import { keccakOfHex } from '../core/keccak.js';
import type { Address } from '../core/types.js';
import type { Database, DeploymentsTable } from './database.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export interface NewDeployment {
  address: Address;
  /** The chain's genesis block hash. */
  generation: string;
  transactionHash: string | null;
  blockNumber: number | null;
  /** The account that sent the creation transaction (for a factory's creation too), when known. */
  creator: string | null;
  /** The contract that created it, when it was created inside a call. */
  factory: string | null;
  /** keccak256 of the init code that ran, when known. */
  creationCodeHash: string | null;
  /** keccak256 of the runtime code (the account's code hash). */
  runtimeCodeHash: string;
  runtimeFingerprint: string;
  /** The creation block's time in seconds since the Unix epoch, when known. */
  blockTimestamp?: number | null;
}

export interface Deployment extends NewDeployment {
  id: string;
  foundAt: number;
  blockTimestamp: number | null;
}

/**
 * Records a deployment (once per generation, address, creation and code); returns its id.
 * Recorded again, it keeps what it holds and gains the facts it lacked (creator, factory, block,
 * init code hash, block time).
 */
export async function recordDeployment(db: Kysely<Database>, d: NewDeployment): Promise<string> {
  return (await recordDeployments(db, [d]))[0]!;
}

/**
 * Records many deployments in a few statements (recordDeployment for one; the bulk fill of a
 * store for many); one already recorded gains the facts it lacked. Returns their ids, in order.
 */
export async function recordDeployments(db: Kysely<Database>, list: readonly NewDeployment[]): Promise<string[]> {
  const now = Date.now();
  const rows = list.map((d) => {
    const address = d.address.toLowerCase();
    return {
      id: sha256Hex(`${d.generation}\n${address}\n${d.transactionHash ?? ''}\n${d.runtimeCodeHash}`),
      address,
      generation: d.generation,
      transactionHash: d.transactionHash,
      blockNumber: d.blockNumber,
      creator: d.creator?.toLowerCase() ?? null,
      factory: d.factory?.toLowerCase() ?? null,
      creationCodeHash: d.creationCodeHash,
      runtimeCodeHash: d.runtimeCodeHash,
      runtimeFingerprint: d.runtimeFingerprint,
      foundAt: now,
      blockTimestamp: d.blockTimestamp ?? null,
    };
  });
  // Twelve parameters a row: 400 rows stay far below either database's limit.
  for (let i = 0; i < rows.length; i += 400) {
    await db
      .insertInto('deployments')
      .values(rows.slice(i, i + 400))
      .onConflict((oc) =>
        oc.column('id').doUpdateSet((eb) => ({
          blockNumber: eb.fn.coalesce('deployments.blockNumber', eb.ref('excluded.blockNumber')),
          creator: eb.fn.coalesce('deployments.creator', eb.ref('excluded.creator')),
          factory: eb.fn.coalesce('deployments.factory', eb.ref('excluded.factory')),
          creationCodeHash: eb.fn.coalesce('deployments.creationCodeHash', eb.ref('excluded.creationCodeHash')),
          blockTimestamp: eb.fn.coalesce('deployments.blockTimestamp', eb.ref('excluded.blockTimestamp')),
        })),
      )
      .execute();
  }
  return rows.map((r) => r.id);
}

/** Stores init code read from the chain under the keccak256 of its bytes (the hash its deployment names). */
export async function saveCreationCode(db: Kysely<Database>, creationCode: string): Promise<string> {
  const code = creationCode.toLowerCase();
  const hash = keccakOfHex(code as `0x${string}`);
  await db
    .insertInto('code')
    .values({ codeHash: hash, code })
    .onConflict((oc) => oc.column('codeHash').doNothing())
    .execute();
  return hash;
}

/** The init code stored under `creationCodeHash`, or null when it was not kept. */
export async function creationCodeOf(db: Kysely<Database>, creationCodeHash: string): Promise<string | null> {
  const row = await db.selectFrom('code').select('code').where('codeHash', '=', creationCodeHash).executeTakeFirst();
  return row?.code ?? null;
}

function toDeployment(row: Selectable<DeploymentsTable>): Deployment {
  return {
    ...row,
    address: knownAddress(row.address),
    blockNumber: row.blockNumber === null ? null : Number(row.blockNumber),
    foundAt: Number(row.foundAt),
    blockTimestamp: row.blockTimestamp === null ? null : Number(row.blockTimestamp),
  };
}

/** A deployment by id, or null. */
export async function getDeployment(db: Kysely<Database>, id: string): Promise<Deployment | null> {
  const row = await db.selectFrom('deployments').selectAll().where('id', '=', id).executeTakeFirst();
  return row ? toDeployment(row) : null;
}

/** The latest deployment recorded at `address` in `generation`, or null. */
export async function latestDeployment(db: Kysely<Database>, address: string, generation: string): Promise<Deployment | null> {
  const row = await db
    .selectFrom('deployments')
    .selectAll()
    .where('address', '=', address.toLowerCase())
    .where('generation', '=', generation)
    .orderBy('foundAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toDeployment(row) : null;
}

/**
 * Deployments of `generation` whose fingerprint is one of `fingerprints` and whose address is
 * not verified yet (or is verified only by a similar match or partially), a page at a time by id.
 */
export async function deploymentsWithFingerprints(
  db: Kysely<Database>,
  generation: string,
  fingerprints: readonly string[],
  page: { after?: string | undefined; limit: number },
): Promise<Deployment[]> {
  if (fingerprints.length === 0) return [];
  const rows = await db
    .selectFrom('deployments')
    .selectAll()
    .where('generation', '=', generation)
    .where('runtimeFingerprint', 'in', [...fingerprints])
    .$if(page.after !== undefined, (qb) => qb.where('id', '>', page.after!))
    .orderBy('id')
    .limit(page.limit)
    .execute();
  return rows.map(toDeployment);
}

/**
 * Forgets the deployments of `generation` created after block `block` (a rollback removed those
 * blocks; what is in them again is recorded again as the follower reads them). Returns how many.
 */
export async function forgetDeploymentsAfter(db: Kysely<Database>, generation: string, block: number): Promise<number> {
  const res = await db.deleteFrom('deployments').where('generation', '=', generation).where('blockNumber', '>', block).executeTakeFirst();
  return Number(res.numDeletedRows);
}
