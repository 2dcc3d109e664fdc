import { createHash } from 'node:crypto';
import { type Kysely, type Migration, sql } from 'kysely';
import { keccak256, stringToHex } from 'viem';

/** A JSON text with every object's keys sorted: one text per value (frozen copy for 0006). */
function canonicalJson0006(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson0006(v === undefined ? null : v)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson0006(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256Hex0006 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * The bytecode database: source files stored once by content hash (keccak256, as solc's
 * metadata names them), compilations once by compiler and input, each compiled contract once
 * with what matching needs, code by hash, deployments, and verified contracts that link a
 * deployment to a compiled contract. Existing records move in place: their sources and
 * compiler inputs become sources and compilations, their submitted text is kept as it was
 * (served byte for byte), and they are marked as submitted.
 */
export const m0006_bytecode_database: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('code')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sources')
      .addColumn('source_hash', 'text', (c) => c.primaryKey())
      .addColumn('content', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('compilations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('compiler_version', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('compilation_sources')
      .addColumn('compilation_id', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('source_hash', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('compilation_sources_pk', ['compilation_id', 'path'])
      .execute();
    await db.schema
      .createTable('compiled_contracts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('compilation_id', 'text', (c) => c.notNull())
      .addColumn('path', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('abi', 'text', (c) => c.notNull())
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('creation_code_hash', 'text')
      .addColumn('runtime_code_hash', 'text')
      .addColumn('creation_link_references', 'text', (c) => c.notNull())
      .addColumn('runtime_link_references', 'text', (c) => c.notNull())
      .addColumn('immutable_references', 'text', (c) => c.notNull())
      .addColumn('creation_auxdata', 'text')
      .addColumn('runtime_auxdata', 'text')
      .addColumn('runtime_fingerprint', 'text')
      .execute();
    await db.schema.createIndex('compiled_contracts_unit_idx').on('compiled_contracts').columns(['compilation_id', 'path', 'name']).unique().execute();
    await db.schema.createIndex('compiled_contracts_fingerprint_idx').on('compiled_contracts').column('runtime_fingerprint').execute();
    await db.schema
      .createTable('input_documents')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('single-file', 'standard-json', 'raw')`))
      .addColumn('document', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('deployments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('address', 'text', (c) => c.notNull())
      .addColumn('generation', 'text', (c) => c.notNull())
      .addColumn('transaction_hash', 'text')
      .addColumn('block_number', 'bigint')
      .addColumn('creator', 'text')
      .addColumn('factory', 'text')
      .addColumn('creation_code_hash', 'text')
      .addColumn('runtime_code_hash', 'text', (c) => c.notNull())
      .addColumn('runtime_fingerprint', 'text', (c) => c.notNull())
      .addColumn('found_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deployments_address_idx').on('deployments').columns(['address', 'found_at']).execute();
    await db.schema.createIndex('deployments_fingerprint_idx').on('deployments').column('runtime_fingerprint').execute();
    // Whole builds submitted without an address: their contracts verify every copy deployed, now and later.
    await db.schema
      .createTable('builds')
      .addColumn('receipt', 'text', (c) => c.primaryKey())
      .addColumn('compilation_id', 'text', (c) => c.notNull())
      .addColumn('input_document_id', 'text', (c) => c.notNull())
      .addColumn('compiler_version', 'text', (c) => c.notNull())
      .addColumn('format', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('builds_compilation_idx').on('builds').columns(['compilation_id', 'created_at']).execute();
    await db.schema
      .createTable('chain_state')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('verified_contracts_0006')
      .addColumn('address', 'text', (c) => c.primaryKey())
      .addColumn('compiled_contract_id', 'text', (c) => c.notNull())
      .addColumn('input_document_id', 'text', (c) => c.notNull())
      .addColumn('deployment_id', 'text')
      .addColumn('contract_name', 'text', (c) => c.notNull())
      .addColumn('source_path', 'text', (c) => c.notNull())
      .addColumn('compiler_version', 'text', (c) => c.notNull())
      .addColumn('code_format', 'text', (c) => c.notNull())
      .addColumn('constructor_arguments', 'text', (c) => c.notNull())
      .addColumn('constructor_arguments_known', 'integer', (c) => c.notNull())
      .addColumn('libraries', 'text', (c) => c.notNull())
      .addColumn('license_type', 'integer', (c) => c.notNull())
      .addColumn('match_kind', 'text', (c) => c.notNull().check(sql`match_kind in ('full', 'partial')`))
      .addColumn('creation_match', 'text', (c) => c.check(sql`creation_match in ('full', 'partial')`))
      .addColumn('runtime_match', 'text', (c) => c.check(sql`runtime_match in ('full', 'partial')`))
      .addColumn('creation_compared', 'integer')
      .addColumn('transformations', 'text', (c) => c.notNull())
      .addColumn('swarm_source', 'text', (c) => c.notNull())
      .addColumn('method', 'text', (c) => c.notNull().check(sql`method in ('submitted', 'similar', 'build')`))
      .addColumn('similar_to', 'text')
      .addColumn('receipt', 'text')
      .addColumn('verified_at', 'bigint', (c) => c.notNull())
      .execute();

    // A batch at a time by address, so a large store migrates in bounded memory.
    let moved = 0;
    let after = '';
    for (;;) {
      const rows = await db.selectFrom('verified_contracts').selectAll().where('address', '>', after).orderBy('address').limit(200).execute();
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.address;
      moved += rows.length;
      for (const row of rows) await moveVerifiedContract0006(db, row);
    }
    await db.schema.dropTable('verified_contracts').execute();
    await db.schema.alterTable('verified_contracts_0006').renameTo('verified_contracts').execute();
    // Newest first, a page at a time: keyset pagination walks this index.
    await db.schema.createIndex('verified_contracts_verified_at_idx').on('verified_contracts').columns(['verified_at', 'address']).execute();
    await db.schema.createIndex('verified_contracts_name_idx').on('verified_contracts').column('contract_name').execute();
    await db.schema.createIndex('verified_contracts_compiled_idx').on('verified_contracts').column('compiled_contract_id').execute();
    await db.schema.createIndex('verified_contracts_deployment_idx').on('verified_contracts').column('deployment_id').execute();
    await db.insertInto('counters').values({ name: 'verified_contracts', value: moved }).execute();

    // Why a record left verified_contracts, and which compiled contract it was (a similar
    // match can still name the address it was first verified at).
    await db.schema
      .alterTable('verification_history')
      .addColumn('reason', 'text', (c) => c.notNull().defaultTo('replaced'))
      .execute();
    await db.schema.alterTable('verification_history').addColumn('compiled_contract_id', 'text').execute();
    await db.schema.createIndex('verification_history_compiled_idx').on('verification_history').columns(['compiled_contract_id', 'replaced_at']).execute();

    // Jobs of a third kind (a whole build), and finished jobs that keep a reference instead of their sources.
    await db.schema
      .createTable('verification_jobs_0006')
      .addColumn('receipt', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind in ('source', 'proxy', 'build')`))
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
      .addColumn('payload_pruned_at', 'bigint')
      .execute();
    await sql`insert into verification_jobs_0006 (receipt, kind, address, state, request, result_text, result, last_error, api_key_id, attempts, not_before, lease_owner, lease_until, created_at, updated_at, finished_at)
      select receipt, kind, address, state, request, result_text, result, last_error, api_key_id, attempts, not_before, lease_owner, lease_until, created_at, updated_at, finished_at from verification_jobs`.execute(
      db,
    );
    await db.schema.dropTable('verification_jobs').execute();
    await db.schema.alterTable('verification_jobs_0006').renameTo('verification_jobs').execute();
    await db.schema.createIndex('verification_jobs_queued_idx').on('verification_jobs').columns(['state', 'not_before', 'created_at']).execute();
    await db.schema.createIndex('verification_jobs_lease_idx').on('verification_jobs').columns(['state', 'lease_until']).execute();
    await db.schema.createIndex('verification_jobs_address_idx').on('verification_jobs').columns(['address', 'created_at']).execute();
    // Pruning walks finished jobs by age.
    await db.schema.createIndex('verification_jobs_finished_idx').on('verification_jobs').columns(['finished_at']).execute();
  },

  async down(): Promise<void> {
    throw new Error('0006_bytecode_database cannot be undone: restore a backup');
  },
};

async function moveVerifiedContract0006(db: Kysely<any>, row: any): Promise<void> {
  {
    let input: { language?: string; sources?: Record<string, { content?: string }>; settings?: Record<string, unknown> } = {};
    try {
      input = JSON.parse(row.compiler_input);
    } catch {
      // kept empty: the record still serves its submitted text
    }
    const { outputSelection: _outputSelection, ...settings } = input.settings ?? {};
    const sourceHashes: Record<string, string> = {};
    for (const [path, source] of Object.entries(input.sources ?? {})) {
      const content = typeof source?.content === 'string' ? source.content : '';
      const hash = keccak256(stringToHex(content));
      sourceHashes[path] = hash;
      await db
        .insertInto('sources')
        .values({ source_hash: hash, content })
        .onConflict((oc) => oc.column('source_hash').doNothing())
        .execute();
    }
    const compilerVersion = String(row.compiler_version).replace(/^v/, '');
    const language = input.language ?? 'Solidity';
    const compilationId = sha256Hex0006(`${compilerVersion}\n${canonicalJson0006({ language, sources: sourceHashes, settings })}`);
    await db
      .insertInto('compilations')
      .values({ id: compilationId, compiler_version: compilerVersion, language, settings: JSON.stringify(settings), created_at: Number(row.verified_at) })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    for (const [path, hash] of Object.entries(sourceHashes)) {
      await db
        .insertInto('compilation_sources')
        .values({ compilation_id: compilationId, path, source_hash: hash })
        .onConflict((oc) => oc.columns(['compilation_id', 'path']).doNothing())
        .execute();
    }
    const compiledId = sha256Hex0006(`${compilationId}\n${row.source_path}\n${row.contract_name}`);
    await db
      .insertInto('compiled_contracts')
      .values({
        id: compiledId,
        compilation_id: compilationId,
        path: row.source_path,
        name: row.contract_name,
        abi: row.abi,
        metadata: row.metadata,
        creation_code_hash: null,
        runtime_code_hash: null,
        creation_link_references: '{}',
        runtime_link_references: '{}',
        immutable_references: '{}',
        creation_auxdata: null,
        runtime_auxdata: null,
        runtime_fingerprint: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    // The text as the release stored it: served byte for byte.
    const documentId = sha256Hex0006(`raw\n${row.source_code}`);
    await db
      .insertInto('input_documents')
      .values({ id: documentId, kind: 'raw', document: row.source_code })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    await db
      .insertInto('verified_contracts_0006')
      .values({
        address: row.address,
        compiled_contract_id: compiledId,
        input_document_id: documentId,
        deployment_id: null,
        contract_name: row.contract_name,
        source_path: row.source_path,
        compiler_version: row.compiler_version,
        code_format: row.code_format,
        constructor_arguments: row.constructor_arguments,
        constructor_arguments_known: row.constructor_arguments_known ?? 1,
        libraries: row.libraries,
        license_type: row.license_type,
        match_kind: row.match_kind,
        creation_match: row.creation_match,
        runtime_match: row.runtime_match,
        creation_compared: row.creation_compared ?? null,
        transformations: row.transformations,
        swarm_source: row.swarm_source,
        method: 'submitted',
        similar_to: null,
        receipt: row.receipt,
        verified_at: row.verified_at,
      })
      .execute();
  }
}
