/**
 * What readers that keep answers in memory need from the store: a version per group of tables
 * that moves whenever a row of the group changes, in this process or in any other that shares
 * the database. A reader notes the version, reads, and keeps what it read under that version
 * only if the version has not moved meanwhile; a kept answer is served only while its version
 * is current. So a record taken off, improved or linked to a proxy, or a key revoked, is never
 * served from memory after the change is committed.
 *
 * - This process: every write to a watched table is seen by a Kysely plugin (before and after
 *   it runs), and writeTransaction moves the version once more after its commit.
 * - Other processes on SQLite (the `keys` command, a second service on one file): SQLite's
 *   `data_version` moves when another connection commits; it is read on every version ask.
 * - Other processes on PostgreSQL: triggers NOTIFY on commit (migration 0012), heard by one
 *   LISTEN connection; notifications of other schemas (other stores in the database) are not ours. While that connection is down, versions are -1: nothing is kept.
 */
import type SqliteDatabase from 'better-sqlite3';
import type { KyselyPlugin, OperationNode, PluginTransformQueryArgs, PluginTransformResultArgs, QueryResult, RootOperationNode, UnknownRow } from 'kysely';
import pg from 'pg';
import type { Logger } from '../core/log.js';

/** Groups of tables whose changes readers watch. */
export type ChangeGroup = 'records' | 'keys';

/** The PostgreSQL channel the triggers of migration 0012 notify (payload: the group). */
export const CHANGE_CHANNEL = 'solproof_changes';

/** Which group a table belongs to (names compared without underscores or case). */
const WATCHED: ReadonlyMap<string, ChangeGroup> = new Map([
  ['verifiedcontracts', 'records'],
  ['proxyrecords', 'records'],
  ['apikeys', 'keys'],
]);
/** Columns a write may change without changing what readers of the group see. */
const UNSEEN_COLUMNS: ReadonlySet<string> = new Set(['lastusedat']);

export interface StoreChanges {
  /** The group's version now; -1 when changes cannot be heard (keep nothing, serve nothing kept). */
  version(group: ChangeGroup): number;
  /** Moves every group's version (a change was seen that names no group). */
  bumpAll(): void;
  /**
   * Tells every process that a job waits (PostgreSQL: the workers claim it at once instead of
   * at their next poll; SQLite has one process, which wakes its own runner). Sent when the
   * queuing process wants help, not at every insert: a submission whose sources were compiled
   * before is run by the process that queued it, before anyone else could claim it.
   */
  announceJobQueued(): Promise<void>;
  /** Calls `fn` when a process announces a job (announceJobQueued). Returns what stops it. */
  onJobQueued(fn: () => void): () => void;
  /** Stops listening (PostgreSQL). */
  close(): Promise<void>;
}

const norm = (name: string): string => name.replaceAll('_', '').toLowerCase();

function identifierName(node: OperationNode | undefined): string | null {
  if (!node) return null;
  if (node.kind === 'AliasNode') return identifierName((node as unknown as { node: OperationNode }).node);
  if (node.kind === 'TableNode') return (node as unknown as { table: { identifier: { name: string } } }).table.identifier.name;
  if (node.kind === 'ColumnNode') return (node as unknown as { column: { name: string } }).column.name;
  return null;
}

/** The group a write query changes, or null (a read, a table nobody watches, or a column nobody sees). */
export function changedGroup(node: RootOperationNode): ChangeGroup | null {
  let table: string | null = null;
  let onlyUnseen = false;
  switch (node.kind) {
    case 'InsertQueryNode':
      table = identifierName(node.into);
      break;
    case 'UpdateQueryNode': {
      table = identifierName(node.table);
      const columns = (node.updates ?? []).map((u) => identifierName(u.column));
      onlyUnseen = columns.length > 0 && columns.every((c) => c !== null && UNSEEN_COLUMNS.has(norm(c)));
      break;
    }
    case 'DeleteQueryNode':
      table = node.from.froms.length === 1 ? identifierName(node.from.froms[0]) : null;
      // A delete from several tables (or one not named plainly) is treated as touching every group.
      if (table === null) return 'records';
      break;
    default:
      return null;
  }
  if (table === null || onlyUnseen) return null;
  return WATCHED.get(norm(table)) ?? null;
}

/** The versions and the plugin that moves them on this process's writes. */
export class ChangeVersions implements KyselyPlugin {
  private readonly versions: Record<ChangeGroup, number> = { records: 0, keys: 0 };
  private readonly pending = new WeakMap<object, ChangeGroup>();

  bump(group: ChangeGroup): void {
    this.versions[group]++;
  }

  bumpAll(): void {
    this.versions.records++;
    this.versions.keys++;
  }

  current(group: ChangeGroup): number {
    return this.versions[group];
  }

  /** A snapshot to compare after a transaction commits (see afterCommit). */
  snapshot(): Record<ChangeGroup, number> {
    return { ...this.versions };
  }

  /** Moves again, after the commit, every group that moved while the transaction ran. */
  afterCommit(before: Record<ChangeGroup, number>): void {
    for (const group of ['records', 'keys'] as const) if (this.versions[group] !== before[group]) this.bump(group);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const group = changedGroup(args.node);
    if (group) {
      this.pending.set(args.queryId, group);
      this.bump(group);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const group = this.pending.get(args.queryId);
    if (group) this.bump(group);
    return args.result;
  }
}

/** SQLite: the versions, moved also when another connection commits to the file. */
export function sqliteChanges(versions: ChangeVersions, handle: SqliteDatabase.Database): StoreChanges {
  const dataVersion = handle.prepare('pragma data_version').pluck();
  let seen = dataVersion.get() as number;
  // Read at most once per turn of the event loop (a read costs a few µs, and a request asks
  // two or three times): a commit by another process is seen by the requests of the next turn
  // at the latest, milliseconds after it.
  let readThisTurn = false;
  const nextTurn = (): void => {
    readThisTurn = false;
  };
  return {
    version(group) {
      if (!readThisTurn) {
        readThisTurn = true;
        setImmediate(nextTurn);
        const now = dataVersion.get() as number;
        if (now !== seen) {
          seen = now;
          versions.bumpAll();
        }
      }
      return versions.current(group);
    },
    bumpAll: () => versions.bumpAll(),
    announceJobQueued: async () => {},
    onJobQueued: () => () => {},
    close: async () => {},
  };
}

/**
 * PostgreSQL: the versions, moved also by the triggers' notifications. The LISTEN connection
 * opens on the first ask; while it is not listening every version is -1, and each time it
 * starts listening every version moves (what was missed meanwhile is unknown).
 */
export function postgresChanges(versions: ChangeVersions, url: string, pool: pg.Pool, logger?: Logger): StoreChanges {
  let client: pg.Client | null = null;
  let listening = false;
  let closed = false;
  let retryMs = 250;
  let timer: NodeJS.Timeout | undefined;
  const jobListeners = new Set<() => void>();

  const connect = (): void => {
    if (closed || client) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const lost = (err?: Error): void => {
      if (client !== c) return;
      client = null;
      listening = false;
      versions.bumpAll();
      c.end().catch(() => {});
      if (closed) return;
      if (err) logger?.warn({ err: err.message }, 'PostgreSQL change notifications lost: answers are read from the store until they are back');
      timer = setTimeout(connect, retryMs);
      timer.unref();
      retryMs = Math.min(retryMs * 2, 5000);
    };
    c.on('error', lost);
    c.on('end', () => lost());
    let schema: string | null = null;
    c.on('notification', (message) => {
      // The channel is the database's: changes in other schemas (other stores) are not ours.
      const payload = message.payload ?? '';
      const dot = payload.lastIndexOf('.');
      if (dot >= 0 && payload.slice(0, dot) !== schema) return;
      const group = payload.slice(dot + 1);
      if (group === 'jobs') for (const fn of jobListeners) fn();
      else if (group === 'records' || group === 'keys') versions.bump(group);
      else versions.bumpAll();
    });
    c.connect()
      .then(() => c.query<{ schema: string | null }>('select current_schema() as schema'))
      .then((res) => {
        schema = res.rows[0]?.schema ?? null;
        return c.query(`listen ${CHANGE_CHANNEL}`);
      })
      .then(() => {
        if (client !== c) return;
        versions.bumpAll();
        listening = true;
        retryMs = 250;
        // A job announced while nobody listened was not heard: whoever waits for jobs looks now.
        for (const fn of jobListeners) fn();
      })
      .catch(lost);
  };

  return {
    version(group) {
      if (!listening) {
        connect();
        return -1;
      }
      return versions.current(group);
    },
    bumpAll: () => versions.bumpAll(),
    async announceJobQueued() {
      // The wake-up is a courtesy (workers also poll): a failure costs at most a poll's wait.
      await pool.query(`select pg_notify('${CHANGE_CHANNEL}', current_schema() || '.jobs')`).catch(() => undefined);
    },
    onJobQueued(fn) {
      jobListeners.add(fn);
      connect();
      return () => jobListeners.delete(fn);
    },
    close: async () => {
      closed = true;
      jobListeners.clear();
      clearTimeout(timer);
      const c = client;
      client = null;
      listening = false;
      await c?.end().catch(() => {});
    },
  };
}
