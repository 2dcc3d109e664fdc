/**
 * Contracts found on the chain: where and by whom each was created and the hashes of its
 * code, per chain generation (a devnet restarted from genesis is a new generation).
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Address } from '../core/types.js';
import type { Database } from './database.js';

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export interface NewDeployment {
  address: Address;
  /** The chain's genesis block hash. */
  generation: string;
  transactionHash: string | null;
  blockNumber: number | null;
  creator: string | null;
  /** The contract that created it, when it was created inside a call. */
  factory: string | null;
  /** keccak256 of the init code that ran, when known. */
  creationCodeHash: string | null;
  /** keccak256 of the runtime code (the account's code hash). */
  runtimeCodeHash: string;
  runtimeFingerprint: string;
}

export interface Deployment extends NewDeployment {
  id: string;
  foundAt: number;
}

/** Records a deployment (once per generation, address, creation and code); returns its id. */
export async function recordDeployment(db: Kysely<Database>, d: NewDeployment): Promise<string> {
  const address = d.address.toLowerCase();
  const id = sha256Hex(`${d.generation}\n${address}\n${d.transactionHash ?? ''}\n${d.runtimeCodeHash}`);
  await db
    .insertInto('deployments')
    .values({
      id,
      address,
      generation: d.generation,
      transactionHash: d.transactionHash,
      blockNumber: d.blockNumber,
      creator: d.creator?.toLowerCase() ?? null,
      factory: d.factory?.toLowerCase() ?? null,
      creationCodeHash: d.creationCodeHash,
      runtimeCodeHash: d.runtimeCodeHash,
      runtimeFingerprint: d.runtimeFingerprint,
      foundAt: Date.now(),
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return id;
}

function toDeployment(row: {
  id: string; address: string; generation: string; transactionHash: string | null; blockNumber: number | null; creator: string | null;
  factory: string | null; creationCodeHash: string | null; runtimeCodeHash: string; runtimeFingerprint: string; foundAt: number;
}): Deployment {
  return {
    ...row,
    address: row.address as Address,
    blockNumber: row.blockNumber === null ? null : Number(row.blockNumber),
    foundAt: Number(row.foundAt),
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
  page: { after?: string; limit: number },
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
