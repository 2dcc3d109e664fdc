/**
 * Throw-away databases for tests: a temporary SQLite directory, or a fresh schema in a
 * PostgreSQL test database (selected per connection through search_path) that is dropped
 * afterwards. Used by the store's own tests and by any suite that needs a real database.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { randomString } from '../../src/core/random.js';
import { compilationIdentity, compiledContractId, saveCompilation, sourceHash } from '../../src/store/compilations.js';
import type { Database } from '../../src/store/database.js';
import { saveInputDocument } from '../../src/store/inputDocuments.js';
import { type OpenStoreOptions, openStore, type Store, type StoreDialect } from '../../src/store/openStore.js';
import type { NewVerifiedContract } from '../../src/store/verifiedContracts.js';
import type { CompiledContract, SolcInput } from '../../src/verify/index.js';
import { sampleRecord } from './sampleRecords.js';

/** The PostgreSQL test database (override with SOLPROOF_TEST_DATABASE_URL). */
export const PG_TEST_URL = process.env.SOLPROOF_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Null when PostgreSQL answers at `url`, else why not (for a skip message). */
export async function probePostgres(url = PG_TEST_URL): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message || error.name : String(error);
  } finally {
    await client.end().catch(() => {});
  }
}

export interface TestDatabase {
  dialect: StoreDialect;
  /** Where SQLite keeps its file (unused by PostgreSQL, still a real temp dir). */
  dataDir: string;
  /** The URL that selects this database's schema (PostgreSQL only). */
  databaseUrl?: string;
  /** The PostgreSQL schema holding the tables. */
  schema?: string;
  /** Opens another store (its own connection or pool) on this same database. */
  open(options?: Partial<OpenStoreOptions>): Promise<Store>;
  /** Removes the temp dir and drops the schema. */
  dispose(): Promise<void>;
}

/** A fresh, empty database of the given dialect. */
export async function createTestDatabase(dialect: StoreDialect, pgUrl = PG_TEST_URL): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'solproof-store-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    return {
      dialect,
      dataDir,
      open: (options) => openStore({ ...options, dataDir }),
      dispose: async () => removeDir(),
    };
  }
  // Random lower-case identifier: safe to splice into DDL.
  const schema = `t_${randomString('abcdefghijklmnopqrstuvwxyz0123456789', 16)}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    await admin.query(`create schema ${schema}`);
  } finally {
    await admin.end();
  }
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();
  return {
    dialect,
    dataDir,
    databaseUrl,
    schema,
    open: (options) => openStore({ ...options, dataDir, databaseUrl }),
    dispose: async () => {
      removeDir();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      try {
        await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

const SAMPLE_SOURCE = 'pragma solidity ^0.8.26;\ncontract Box { uint256 public value; }\n';
const SAMPLE_VERSION = '0.8.26+commit.8a97fa7a';
const SAMPLE_INPUT: SolcInput = {
  language: 'Solidity',
  sources: { 'Box.sol': { content: SAMPLE_SOURCE } },
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
};
const SAMPLE_ABI = [
  { inputs: [], name: 'value', outputs: [{ internalType: 'uint256', name: '', type: 'uint256' }], stateMutability: 'view', type: 'function' },
];
const SAMPLE_COMPILED: CompiledContract = {
  abi: SAMPLE_ABI,
  metadata: '{"compiler":{"version":"0.8.26+commit.8a97fa7a"}}',
  creation: { code: '6080604052348015600e575f80fd5b50', linkReferences: {}, auxdata: { values: [] } },
  runtime: { code: '6080604052348015600e575f80fd5b50600436106026575f3560e01c', linkReferences: {}, immutableReferences: {}, auxdata: { values: [] } },
};

/** The ids of the sample's compiled contract and input document (deterministic: both are content hashes). */
export const SAMPLE_IDS = (() => {
  const compilationId = compilationIdentity(SAMPLE_VERSION, SAMPLE_INPUT).id;
  return { compiledContractId: compiledContractId(compilationId, 'Box.sol', 'Box') };
})();

/** Stores the compilation and input document every sample record refers to (idempotent). */
export async function saveSampleDocuments(db: Kysely<Database>): Promise<string> {
  await saveCompilation(db, SAMPLE_VERSION, SAMPLE_INPUT, [{ path: 'Box.sol', name: 'Box', compiled: SAMPLE_COMPILED }]);
  return saveInputDocument(db, { kind: 'single-file', content: SAMPLE_SOURCE });
}

/** What a sample record reads back as, beside its own fields. */
export const SAMPLE_DOCUMENTS = {
  language: 'Solidity',
  sources: [{ path: 'Box.sol', content: SAMPLE_SOURCE }],
  abi: JSON.stringify(SAMPLE_ABI),
  optimizationUsed: true,
  runs: 200,
  evmVersion: 'cancun',
  viaIR: false,
};

/**
 * A plausible verified contract record for `address`, with `overrides` applied. Its documents
 * must be stored first (saveSampleDocuments); `inputDocumentId` is what that returned.
 */
export function sampleVerifiedContract(address: `0x${string}`, overrides: Partial<NewVerifiedContract> = {}): NewVerifiedContract {
  return sampleRecord(
    {
      address,
      compiledContractId: SAMPLE_IDS.compiledContractId,
      inputDocumentId: sampleInputDocumentId,
      contractName: 'Box',
      sourcePath: 'Box.sol',
      compilerVersion: 'v0.8.26+commit.8a97fa7a',
      codeFormat: 'solidity-single-file',
      licenseType: 3,
    },
    overrides,
  );
}

/** The single-file input document's id (sha256 of its kind and the source's hash). */
const sampleInputDocumentId = createHash('sha256')
  .update(`single-file\n${sourceHash(SAMPLE_SOURCE)}`, 'utf8')
  .digest('hex');
