/**
 * The schema's history. Each migration is frozen once released: it talks to `Kysely<any>`
 * with the literal snake_case names of its day and never imports application code, so
 * later changes to table types cannot rewrite how an old database gets upgraded.
 * Types are chosen to mean the same on SQLite and PostgreSQL (`bigint` for epoch ms,
 * `text` for JSON, `integer` 0/1 for flags).
 */
import { sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const m0001_initial: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('key_prefix', 'text', (c) => c.notNull())
      .addColumn('owner', 'text')
      .addColumn('tier', 'text', (c) => c.notNull().defaultTo('free').check(sql`tier in ('free', 'pro')`))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_used_at', 'bigint')
      .addColumn('revoked_at', 'bigint')
      .execute();

    await db.schema
      .createTable('verification_jobs')
      .addColumn('receipt', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('source', 'proxy')`))
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) =>
        c.notNull().check(sql`state in ('queued', 'running', 'pass', 'fail', 'already_verified')`),
      )
      .addColumn('request', 'text', (c) => c.notNull())
      .addColumn('result_text', 'text')
      .addColumn('result', 'text')
      .addColumn('last_error', 'text')
      .addColumn('api_key_id', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('not_before', 'bigint', (c) => c.notNull())
      .addColumn('lease_owner', 'text')
      .addColumn('lease_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute();
    // The claim query filters on state plus one time column and takes the oldest.
    await db.schema
      .createIndex('verification_jobs_queued_idx')
      .on('verification_jobs')
      .columns(['state', 'not_before', 'created_at'])
      .execute();
    await db.schema
      .createIndex('verification_jobs_lease_idx')
      .on('verification_jobs')
      .columns(['state', 'lease_until'])
      .execute();
    await db.schema
      .createIndex('verification_jobs_address_idx')
      .on('verification_jobs')
      .columns(['address', 'created_at'])
      .execute();

    await db.schema
      .createTable('verified_contracts')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('contract_name', 'text', (c) => c.notNull())
      .addColumn('source_path', 'text', (c) => c.notNull())
      .addColumn('compiler_version', 'text', (c) => c.notNull())
      .addColumn('code_format', 'text', (c) => c.notNull())
      .addColumn('source_code', 'text', (c) => c.notNull())
      .addColumn('compiler_input', 'text', (c) => c.notNull())
      .addColumn('abi', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('optimization_used', 'integer', (c) => c.notNull())
      .addColumn('runs', 'integer', (c) => c.notNull())
      .addColumn('evm_version', 'text', (c) => c.notNull())
      .addColumn('via_ir', 'integer', (c) => c.notNull())
      .addColumn('constructor_arguments', 'text', (c) => c.notNull())
      .addColumn('libraries', 'text', (c) => c.notNull())
      .addColumn('license_type', 'integer', (c) => c.notNull())
      .addColumn('match_kind', 'text', (c) => c.notNull().check(sql`match_kind in ('full', 'partial')`))
      .addColumn('creation_match', 'text', (c) => c.check(sql`creation_match in ('full', 'partial')`))
      .addColumn('runtime_match', 'text', (c) => c.check(sql`runtime_match in ('full', 'partial')`))
      .addColumn('transformations', 'text', (c) => c.notNull())
      .addColumn('swarm_source', 'text', (c) => c.notNull())
      .addColumn('receipt', 'text')
      .addColumn('verified_at', 'bigint', (c) => c.notNull())
      .addColumn('proxy_implementation', 'text')
      .addColumn('proxy_info', 'text')
      .addColumn('proxy_checked_at', 'bigint')
      .addColumn('proxy_block', 'bigint')
      .execute();
    await db.schema
      .createIndex('verified_contracts_verified_at_idx')
      .on('verified_contracts')
      .column('verified_at')
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('verified_contracts').execute();
    await db.schema.dropTable('verification_jobs').execute();
    await db.schema.dropTable('api_keys').execute();
  },
};

/** Proxy links found by verifyproxycontract, for verified and unverified proxies alike. */
const m0002_proxies: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('proxy_records')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('implementation', 'text', (c) => c.notNull())
      .addColumn('final_implementation', 'text', (c) => c.notNull())
      .addColumn('pattern', 'text', (c) => c.notNull())
      .addColumn('detection', 'text', (c) => c.notNull())
      .addColumn('block_number', 'bigint', (c) => c.notNull())
      .addColumn('checked_at', 'bigint', (c) => c.notNull())
      .addColumn('receipt', 'text')
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('proxy_records').execute();
  },
};

const m0003_quotas: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    // One row per key, kind and UTC day; the submit path bumps `count` with one conditional upsert.
    await db.schema
      .createTable('daily_quotas')
      .addColumn('api_key_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('verify', 'proxy')`))
      .addColumn('day', 'text', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('daily_quotas_pk', ['api_key_id', 'kind', 'day'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('daily_quotas').execute();
  },
};

/**
 * Verdict details that were missing: whether the creation code was compared at all (null for
 * records written before this was known), whether the constructor arguments were proven by
 * a creation match (records without one had only the submitter's word), the history of
 * records replaced by a better match, and an index to count a key's unfinished jobs.
 */
const m0004_verdict_detail: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('verified_contracts').addColumn('creation_compared', 'integer').execute();
    await db.schema
      .alterTable('verified_contracts')
      .addColumn('constructor_arguments_known', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db
      .updateTable('verified_contracts')
      .set({ constructor_arguments_known: 0 })
      .where('creation_match', 'is', null)
      .execute();
    await db.schema
      .createTable('verification_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('replaced_at', 'bigint', (c) => c.notNull())
      .addColumn('replaced_by', 'text')
      .addColumn('record', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('verification_history_address_idx')
      .on('verification_history')
      .columns(['address', 'replaced_at'])
      .execute();
    // Fair shares: a key's queued and running jobs are counted on every submission and claim.
    await db.schema
      .createIndex('verification_jobs_key_state_idx')
      .on('verification_jobs')
      .columns(['api_key_id', 'state'])
      .execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropIndex('verification_jobs_key_state_idx').execute();
    await db.schema.dropTable('verification_history').execute();
    await db.schema.alterTable('verified_contracts').dropColumn('constructor_arguments_known').execute();
    await db.schema.alterTable('verified_contracts').dropColumn('creation_compared').execute();
  },
};

/**
 * The proxy columns of verified_contracts were never read: proxy links live in proxy_records
 * (a proxy need not be verified to be linked).
 */
const m0005_drop_unused_proxy_columns: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    for (const column of ['proxy_implementation', 'proxy_info', 'proxy_checked_at', 'proxy_block']) {
      await db.schema.alterTable('verified_contracts').dropColumn(column).execute();
    }
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.alterTable('verified_contracts').addColumn('proxy_implementation', 'text').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_info', 'text').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_checked_at', 'bigint').execute();
    await db.schema.alterTable('verified_contracts').addColumn('proxy_block', 'bigint').execute();
  },
};

/** Every migration, keyed by a name that sorts in the order they must run. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001_initial,
  '0002_proxies': m0002_proxies,
  '0003_quotas': m0003_quotas,
  '0004_verdict_detail': m0004_verdict_detail,
  '0005_drop_unused_proxy_columns': m0005_drop_unused_proxy_columns,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
