import { type Kysely, type Migration, sql } from 'kysely';

/** The first schema: API keys, the verification queue, and verified contracts. */
export const m0001_initial: Migration = {
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
      .addColumn('state', 'text', (c) => c.notNull().check(sql`state in ('queued', 'running', 'pass', 'fail', 'already_verified')`))
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
    await db.schema.createIndex('verification_jobs_queued_idx').on('verification_jobs').columns(['state', 'not_before', 'created_at']).execute();
    await db.schema.createIndex('verification_jobs_lease_idx').on('verification_jobs').columns(['state', 'lease_until']).execute();
    await db.schema.createIndex('verification_jobs_address_idx').on('verification_jobs').columns(['address', 'created_at']).execute();

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
    await db.schema.createIndex('verified_contracts_verified_at_idx').on('verified_contracts').column('verified_at').execute();
  },

  async down(db: Kysely<any>): Promise<void> {
    await db.schema.dropTable('verified_contracts').execute();
    await db.schema.dropTable('verification_jobs').execute();
    await db.schema.dropTable('api_keys').execute();
  },
};
