import type { Kysely } from 'kysely';
import type { Address } from '../core/types.js';
import type { Database } from './database.js';

/** What verifyproxycontract last found for a proxy, and when and at which block it looked. */
export interface ProxyRecord {
  address: Address;
  implementation: Address;
  finalImplementation: Address;
  pattern: string;
  /** The whole detection as the domain returned it. */
  detection: unknown;
  blockNumber: number;
  checkedAt: number;
  receipt: string | null;
}

/** Writes (or replaces, after an upgrade) the proxy record of an address. */
export async function saveProxyRecord(db: Kysely<Database>, record: ProxyRecord): Promise<void> {
  const row = {
    address: record.address.toLowerCase(),
    implementation: record.implementation.toLowerCase(),
    finalImplementation: record.finalImplementation.toLowerCase(),
    pattern: record.pattern,
    detection: JSON.stringify(record.detection, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
    blockNumber: record.blockNumber,
    checkedAt: record.checkedAt,
    receipt: record.receipt,
  };
  await db
    .insertInto('proxyRecords')
    .values(row)
    .onConflict((oc) =>
      oc.column('address').doUpdateSet({
        implementation: row.implementation,
        finalImplementation: row.finalImplementation,
        pattern: row.pattern,
        detection: row.detection,
        blockNumber: row.blockNumber,
        checkedAt: row.checkedAt,
        receipt: row.receipt,
      }),
    )
    .execute();
}

/** The proxy record of an address (any letter case), or null. */
export async function getProxyRecord(db: Kysely<Database>, address: string): Promise<ProxyRecord | null> {
  const row = await db.selectFrom('proxyRecords').selectAll().where('address', '=', address.toLowerCase()).executeTakeFirst();
  if (!row) return null;
  return {
    address: row.address as Address,
    implementation: row.implementation as Address,
    finalImplementation: row.finalImplementation as Address,
    pattern: row.pattern,
    detection: JSON.parse(row.detection) as unknown,
    blockNumber: Number(row.blockNumber),
    checkedAt: Number(row.checkedAt),
    receipt: row.receipt,
  };
}
