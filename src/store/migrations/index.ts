/**
 * The schema's history, one file per migration. Each is frozen once released: it talks to
 * `Kysely<any>` with the literal snake_case names of its day and never imports application
 * code (a helper it needs is its own copy), so later changes to table types cannot rewrite how
 * an old database gets upgraded. Types are chosen to mean the same on SQLite and PostgreSQL
 * (`bigint` for epoch ms, `text` for JSON, `integer` 0/1 for flags).
 *
 * The list is static rather than read from the folder at run time: the built service carries
 * exactly these migrations, under these names, whatever else sits beside them on disk.
 */
import type { Migration, MigrationProvider } from 'kysely';
import { m0001_initial } from './0001_initial.js';
import { m0002_proxies } from './0002_proxies.js';
import { m0003_quotas } from './0003_quotas.js';
import { m0004_verdict_detail } from './0004_verdict_detail.js';
import { m0005_drop_unused_proxy_columns } from './0005_drop_unused_proxy_columns.js';
import { m0006_bytecode_database } from './0006_bytecode_database.js';
import { m0007_deployment_creation_facts } from './0007_deployment_creation_facts.js';
import { m0008_list_search } from './0008_list_search.js';
import { m0009_metadata_hash_lookup } from './0009_metadata_hash_lookup.js';
import { m0010_dry_run_and_diagnosis_quotas } from './0010_dry_run_and_diagnosis_quotas.js';
import { m0011_rollbacks } from './0011_rollbacks.js';
import { m0012_change_notifications } from './0012_change_notifications.js';
import { m0013_copy_lookups } from './0013_copy_lookups.js';
import { m0014_storage_layouts } from './0014_storage_layouts.js';
import { m0015_proxy_history } from './0015_proxy_history.js';

/**
 * Every migration, keyed by a name that sorts in the order they must run. The names are what
 * existing stores recorded in `kysely_migration`: never rename one; a new migration is the next
 * number, in a file of its own, added at the end.
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001_initial,
  '0002_proxies': m0002_proxies,
  '0003_quotas': m0003_quotas,
  '0004_verdict_detail': m0004_verdict_detail,
  '0005_drop_unused_proxy_columns': m0005_drop_unused_proxy_columns,
  '0006_bytecode_database': m0006_bytecode_database,
  '0007_deployment_creation_facts': m0007_deployment_creation_facts,
  '0008_list_search': m0008_list_search,
  '0009_metadata_hash_lookup': m0009_metadata_hash_lookup,
  '0010_dry_run_and_diagnosis_quotas': m0010_dry_run_and_diagnosis_quotas,
  '0011_rollbacks': m0011_rollbacks,
  '0012_change_notifications': m0012_change_notifications,
  '0013_copy_lookups': m0013_copy_lookups,
  '0014_storage_layouts': m0014_storage_layouts,
  '0015_proxy_history': m0015_proxy_history,
};

/** The provider openStore hands Kysely's Migrator. */
export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
