import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';

/**
 * 0012: on PostgreSQL, a committed change to a verified record, a proxy link or a key's
 * standing is announced on the channel `solproof_changes` (payload `<schema>.<group>`), so that
 * every process serving answers from memory drops them at once. SQLite needs nothing: its
 * `data_version` tells a connection that another one committed.
 */
const TRIGGERS: readonly { table: string; group: string; event: string }[] = [
  { table: 'verified_contracts', group: 'records', event: 'insert or update or delete' },
  { table: 'proxy_records', group: 'records', event: 'insert or update or delete' },
  // A key's last use is written every second it is used; only what decides a request is announced.
  { table: 'api_keys', group: 'keys', event: 'insert or delete or update of revoked_at, tier, key_hash' },
];

export const m0012_change_notifications: Migration = {
  async up(db: Kysely<any>): Promise<void> {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    await sql`
      create or replace function solproof_notify_change() returns trigger language plpgsql as $$
      begin
        perform pg_notify('solproof_changes', current_schema() || '.' || tg_argv[0]);
        return null;
      end $$`.execute(db);
    for (const t of TRIGGERS) {
      await sql
        .raw(`create trigger ${t.table}_notify_change after ${t.event} on ${t.table} for each statement execute function solproof_notify_change('${t.group}')`)
        .execute(db);
    }
  },

  async down(db: Kysely<any>): Promise<void> {
    if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
    for (const t of TRIGGERS) await sql.raw(`drop trigger if exists ${t.table}_notify_change on ${t.table}`).execute(db);
    await sql`drop function if exists solproof_notify_change()`.execute(db);
  },
};
