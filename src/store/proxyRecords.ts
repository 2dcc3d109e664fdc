import type { Kysely } from 'kysely';
import { isAddress, knownAddress } from '../core/hex.js';
import type { Address } from '../core/types.js';
import { PROXY_PATTERNS, type ProxyCandidate, type ProxyFound, type ProxyHop, type ProxyPattern } from '../verify/index.js';
import type { Database } from './database.js';

/** What a proxy record keeps of the detection, besides its own columns. */
export type StoredProxyDetection = Pick<ProxyFound, 'chain' | 'conflicts' | 'beacon' | 'admin' | 'facets' | 'eip897ProxyType' | 'isDelegatedAccount'>;

/** What verifyproxycontract last found for a proxy, and when and at which block it looked. */
export interface ProxyRecord {
  address: Address;
  implementation: Address;
  finalImplementation: Address;
  pattern: ProxyPattern;
  detection: StoredProxyDetection;
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
    detection: JSON.stringify(storedDetection(record.detection)),
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

/** Which of these addresses (lower case) have a proxy record: for lists that mark proxies. */
export async function proxyAddressesAmong(db: Kysely<Database>, addresses: readonly string[]): Promise<Set<string>> {
  if (addresses.length === 0) return new Set();
  const rows = await db
    .selectFrom('proxyRecords')
    .select('address')
    .where(
      'address',
      'in',
      addresses.map((a) => a.toLowerCase()),
    )
    .execute();
  return new Set(rows.map((r) => r.address));
}

/** The proxy record of an address (any letter case), or null. */
export async function getProxyRecord(db: Kysely<Database>, address: string): Promise<ProxyRecord | null> {
  const row = await db.selectFrom('proxyRecords').selectAll().where('address', '=', address.toLowerCase()).executeTakeFirst();
  if (!row) return null;
  return {
    address: knownAddress(row.address),
    implementation: knownAddress(row.implementation),
    finalImplementation: knownAddress(row.finalImplementation),
    pattern: asPattern(row.pattern),
    detection: decodeDetection(row.detection),
    blockNumber: Number(row.blockNumber),
    checkedAt: Number(row.checkedAt),
    receipt: row.receipt,
  };
}

function storedDetection(d: StoredProxyDetection): StoredProxyDetection {
  return {
    chain: d.chain,
    conflicts: d.conflicts,
    ...(d.beacon ? { beacon: d.beacon } : {}),
    ...(d.admin ? { admin: d.admin } : {}),
    ...(d.facets ? { facets: d.facets } : {}),
    ...(d.eip897ProxyType ? { eip897ProxyType: d.eip897ProxyType } : {}),
    ...(d.isDelegatedAccount ? { isDelegatedAccount: true } : {}),
  };
}

const PATTERNS = new Set<string>(PROXY_PATTERNS);
const asPattern = (value: unknown): ProxyPattern => (typeof value === 'string' && PATTERNS.has(value) ? (value as ProxyPattern) : 'eip1967');
const asAddress = (value: unknown): Address | undefined => (typeof value === 'string' && isAddress(value) ? knownAddress(value) : undefined);
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null) : [];

/** The stored detection, read back with every address and pattern checked (what does not check is left out). */
function decodeDetection(text: string): StoredProxyDetection {
  let doc: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) doc = parsed as Record<string, unknown>;
  } catch {
    // an unreadable detection shows as an empty one
  }
  const chain: ProxyHop[] = records(doc['chain']).flatMap((h) => {
    const address = asAddress(h['address']);
    const implementation = asAddress(h['implementation']);
    return address && implementation ? [{ address, implementation, pattern: asPattern(h['pattern']) }] : [];
  });
  const conflicts: ProxyCandidate[] = records(doc['conflicts']).flatMap((c) => {
    const implementation = asAddress(c['implementation']);
    return implementation ? [{ implementation, pattern: asPattern(c['pattern']) }] : [];
  });
  const facets = Array.isArray(doc['facets']) ? doc['facets'].map(asAddress).filter((a): a is Address => a !== undefined) : undefined;
  const beacon = asAddress(doc['beacon']);
  const admin = asAddress(doc['admin']);
  const type = doc['eip897ProxyType'];
  return {
    chain,
    conflicts,
    ...(beacon ? { beacon } : {}),
    ...(admin ? { admin } : {}),
    ...(facets ? { facets } : {}),
    ...(type === 1 || type === 2 ? { eip897ProxyType: type } : {}),
    ...(doc['isDelegatedAccount'] === true ? { isDelegatedAccount: true } : {}),
  };
}
