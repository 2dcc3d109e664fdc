/**
 * What a copy of a compiled contract is recorded with: the documents and names of the
 * contract it is a copy of. A copy shares its original's submitted input (stored once) and
 * says through which address it was matched; a copy of a contract from a whole build is
 * recorded as verified by that build.
 */

import type { Kysely } from 'kysely';
import { knownAddress } from '../core/hex.js';
import type { Address, StoredCodeFormat, VerificationMethod } from '../core/types.js';
import type { Database } from './database.js';

export interface CopyTemplate {
  inputDocumentId: string;
  codeFormat: StoredCodeFormat;
  /** Long form with `v`. */
  compilerVersion: string;
  /** Null when the copy's licence is to be read from its sources (a build's contracts). */
  licenseType: number | null;
  contractName: string;
  sourcePath: string;
  method: VerificationMethod;
  /** For a similar match: the address it is matched through. */
  similarTo: Address | null;
  /** For a build: the build's receipt. */
  receipt: string | null;
}

/**
 * The template for a copy of compiled contract `id` at `address`: the record of it this very
 * address had before its code went away (the same code back: the record comes back as it was,
 * with what the deployment proves), else a contract verified from it elsewhere by a
 * submission or a build (the oldest), else any verified with it, else the latest build that
 * holds it, else the last record of it taken off elsewhere. A copy is said to be matched
 * through an address only while that address is verified (it holds the code): a record taken
 * off elsewhere gives its sources and names no address. Null when the compiled contract was
 * never verified anywhere.
 */
export async function findCopyTemplate(db: Kysely<Database>, id: string, address: string): Promise<CopyTemplate | null> {
  const self = address.toLowerCase();
  const history = db
    .selectFrom('verificationHistory')
    .select(['address', 'record', 'reason'])
    .where('compiledContractId', '=', id)
    .orderBy('replacedAt', 'desc')
    .limit(1);
  const ownBefore = await history.where('address', '=', self).executeTakeFirst();
  if (ownBefore) {
    const template = await fromHistory(db, ownBefore, true);
    if (template) return template;
  }
  const rows = await db
    .selectFrom('verifiedContracts')
    .select(['address', 'method', 'inputDocumentId', 'codeFormat', 'compilerVersion', 'licenseType', 'contractName', 'sourcePath', 'receipt'])
    .where('compiledContractId', '=', id)
    .where('address', '!=', self)
    .orderBy('verifiedAt')
    .limit(20)
    .execute();
  const own = rows.find((r) => r.method === 'submitted') ?? rows.find((r) => r.method === 'build') ?? rows[0];
  if (own) {
    // A copy of a build's contract is the build's too; a copy of anything else is similar to it.
    const byBuild = own.method === 'build';
    return {
      inputDocumentId: own.inputDocumentId,
      codeFormat: own.codeFormat as StoredCodeFormat,
      compilerVersion: own.compilerVersion,
      licenseType: Number(own.licenseType),
      contractName: own.contractName,
      sourcePath: own.sourcePath,
      method: byBuild ? 'build' : 'similar',
      similarTo: byBuild ? null : knownAddress(own.address),
      receipt: byBuild ? own.receipt : null,
    };
  }
  const build = await db
    .selectFrom('builds as b')
    .innerJoin('compiledContracts as cc', 'cc.compilationId', 'b.compilationId')
    .select(['b.receipt', 'b.inputDocumentId', 'b.compilerVersion', 'cc.name', 'cc.path'])
    .where('cc.id', '=', id)
    .orderBy('b.createdAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (build) {
    return {
      inputDocumentId: build.inputDocumentId,
      codeFormat: 'solidity-standard-json-input',
      compilerVersion: build.compilerVersion,
      licenseType: null,
      contractName: build.name,
      sourcePath: build.path,
      method: 'build',
      similarTo: null,
      receipt: build.receipt,
    };
  }
  const elsewhere = await history.executeTakeFirst();
  return elsewhere ? fromHistory(db, elsewhere, elsewhere.address === self) : null;
}

/** A template from a record taken off the list: at `address` itself (it comes back as it was), or elsewhere (a similar match). */
async function fromHistory(db: Kysely<Database>, old: { address: string; record: string; reason: string }, sameAddress: boolean): Promise<CopyTemplate | null> {
  const record = JSON.parse(old.record) as Record<string, unknown>;
  if (typeof record['inputDocumentId'] !== 'string') return null;
  const method = record['method'] === 'build' ? 'build' : record['method'] === 'similar' || !sameAddress ? 'similar' : 'submitted';
  const verified = async (a: unknown): Promise<Address | null> =>
    typeof a === 'string' && (await db.selectFrom('verifiedContracts').select('address').where('address', '=', a).executeTakeFirst()) ? knownAddress(a) : null;
  // Another address is named only when a better match replaced its record there (the code stayed) and it is verified now.
  const through = sameAddress ? await verified(record['similarTo']) : old.reason === 'replaced' ? await verified(old.address) : null;
  return {
    inputDocumentId: record['inputDocumentId'],
    codeFormat: String(record['codeFormat']) as StoredCodeFormat,
    compilerVersion: String(record['compilerVersion']),
    licenseType: Number(record['licenseType'] ?? 0),
    contractName: String(record['contractName']),
    sourcePath: String(record['sourcePath']),
    method,
    similarTo: method === 'similar' ? through : null,
    receipt: sameAddress || method === 'build' ? ((record['receipt'] as string | null | undefined) ?? null) : null,
  };
}
