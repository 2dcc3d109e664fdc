/**
 * Throw-away databases for tests: a temporary SQLite directory, or a fresh schema in a
 * PostgreSQL test database (selected per connection through search_path) that is dropped
 * afterwards. Used by the store's own tests and by any suite that needs a real database.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore, type OpenStoreOptions, type Store, type StoreDialect } from '../../src/store/openStore.js';
import { randomString } from '../../src/core/random.js';
import type { NewVerifiedContract } from '../../src/store/verifiedContracts.js';

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
  const schema = 't_' + randomString('abcdefghijklmnopqrstuvwxyz0123456789', 16);
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

/** A plausible verified contract record for `address`, with `overrides` applied. */
export function sampleVerifiedContract(
  address: `0x${string}`,
  overrides: Partial<NewVerifiedContract> = {},
): NewVerifiedContract {
  const source = 'pragma solidity ^0.8.26;\ncontract Box { uint256 public value; }\n';
  return {
    address,
    contractName: 'Box',
    sourcePath: 'Box.sol',
    compilerVersion: 'v0.8.26+commit.8a97fa7a',
    codeFormat: 'solidity-single-file',
    sourceCode: source,
    compilerInput: JSON.stringify({ language: 'Solidity', sources: { 'Box.sol': { content: source } } }),
    abi: '[{"inputs":[],"name":"value","outputs":[{"internalType":"uint256","name":"","type":"uint256"}],"stateMutability":"view","type":"function"}]',
    metadata: '{"compiler":{"version":"0.8.26+commit.8a97fa7a"}}',
    optimizationUsed: true,
    runs: 200,
    evmVersion: 'cancun',
    viaIR: false,
    constructorArguments: '',
    libraries: [],
    licenseType: 3,
    matchKind: 'full',
    creationMatch: 'full',
    creationCompared: true,
    runtimeMatch: 'full',
    transformations: { runtime: [], creation: [] },
    swarmSource: '',
    receipt: null,
    ...overrides,
  };
}
