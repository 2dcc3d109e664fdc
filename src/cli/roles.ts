/**
 * What `--role` changes in `solproof start`, and what every role shares: the role check,
 * readiness, the reads the metrics make when scraped, and the drain on SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { type ReadinessReport, within } from '../api/observability.js';
import type { ChainFollower } from '../bytecodeDatabase/chainFollower.js';
import { FOLLOWER_POSITION } from '../bytecodeDatabase/chainGeneration.js';
import type { SolcCompiler } from '../compilers/index.js';
import { type Config, ConfigError } from '../core/config.js';
import type { Logger } from '../core/log.js';
import type { ServiceMetrics } from '../core/metrics.js';
import type { JobRunner } from '../jobs/queue.js';
import type { RateLimitStore } from '../limits/rateLimits.js';
import { RedisRateLimitStore } from '../limits/redisRateLimits.js';
import { getChainState } from '../store/chainState.js';
import type { Store } from '../store/openStore.js';
import { countJobs, oldestQueuedJobAt } from '../store/verificationJobs.js';
import type { ScrapeSources } from './metrics.js';

/** How long one readiness check may take. */
export const READY_CHECK_MS = 2000;

/**
 * Refuses a role the configuration cannot run: `api` and `worker` share their work through
 * PostgreSQL, and talk to a node of their own (no devnet is started for them).
 */
export function checkRole(config: Pick<Config, 'role' | 'databaseUrl' | 'rpcUrl'>): void {
  if (config.role === 'all') return;
  if (!config.databaseUrl)
    throw new ConfigError(
      `--role ${config.role} (SOLPROOF_ROLE) needs PostgreSQL (--database-url, DATABASE_URL): on SQLite one process serves and verifies, so only --role all is allowed`,
    );
  if (!config.rpcUrl)
    throw new ConfigError(`--role ${config.role} (SOLPROOF_ROLE) needs --rpc-url (SOLPROOF_RPC_URL): a local devnet is started only by --role all`);
}

type Check = ReadinessReport['checks'][string];

async function probe(run: () => Promise<Record<string, unknown> | undefined>): Promise<Check> {
  const outcome = run().then(
    (facts): Check => ({ ok: true, ...facts }),
    (error: unknown): Check => ({ ok: false, error: (error instanceof Error ? error.message : String(error)).slice(0, 200) }),
  );
  return within(outcome, READY_CHECK_MS, { ok: false, error: `no answer within ${READY_CHECK_MS} ms` });
}

/**
 * `/health/ready`: ready when the store and the node answer and, when one is configured, Redis;
 * the age of the oldest waiting job is reported beside them. Not ready while draining.
 */
export function createReadiness(deps: {
  store: Store;
  chain: { getBlockNumber(): Promise<bigint> };
  rateLimits: RateLimitStore;
  draining(): boolean;
}): () => Promise<ReadinessReport> {
  const { store, chain, rateLimits } = deps;
  return async () => {
    if (deps.draining()) return { ready: false, status: 'draining', checks: {} };
    const [storeCheck, nodeCheck, redisCheck, queueCheck] = await Promise.all([
      probe(async () => {
        await sql`select 1`.execute(store.db);
        return { dialect: store.dialect };
      }),
      probe(async () => ({ block: Number(await chain.getBlockNumber()) })),
      rateLimits instanceof RedisRateLimitStore ? probe(async () => void (await rateLimits.ping())) : Promise.resolve(null),
      probe(async () => {
        const oldest = await oldestQueuedJobAt(store.db);
        return { oldestWaitingSeconds: oldest === null ? 0 : Math.max(0, Math.round((Date.now() - oldest) / 1000)) };
      }),
    ]);
    const checks: ReadinessReport['checks'] = { store: storeCheck, node: nodeCheck, ...(redisCheck ? { redis: redisCheck } : {}) };
    const ready = Object.values(checks).every((c) => c.ok);
    const queue = queueCheck.ok ? { oldestWaitingSeconds: queueCheck.oldestWaitingSeconds } : null;
    return { ready, status: ready ? 'ready' : 'unready', checks, queue };
  };
}

/** What the metrics read when scraped: the queue from the store; the follower and compiler where this process has them. */
export function scrapeSources(deps: {
  store: Store;
  chain: { getBlockNumber(): Promise<bigint> };
  compiler?: SolcCompiler;
  /** Where a follower may run (worker and all): the follower, once it is made. */
  follower?: () => ChainFollower | null;
}): ScrapeSources {
  const { store, chain, compiler } = deps;
  return {
    jobCounts: () => countJobs(store.db),
    oldestQueuedAt: () => oldestQueuedJobAt(store.db),
    ...(deps.follower
      ? {
          follower: async () => {
            const follower = deps.follower?.() ?? null;
            if (!follower) return { lagBlocks: null, leading: false };
            const [head, position] = await Promise.all([chain.getBlockNumber(), getChainState(store.db, FOLLOWER_POSITION)]);
            return { lagBlocks: position === null ? null : Math.max(0, Number(head) - Number(position)), leading: follower.leading };
          },
        }
      : {}),
    ...(compiler
      ? {
          compilerStats: () => {
            const stats = compiler.stats();
            return { compiles: stats.compiles, warmUps: stats.warmUps, downloads: stats.downloads };
          },
        }
      : {}),
  };
}

/** The compiler, its compiles counted and timed by version and outcome. */
export function withCompileMetrics(compiler: SolcCompiler, metrics: ServiceMetrics): SolcCompiler {
  const measured = Object.create(compiler) as SolcCompiler;
  measured.compile = async (version, input, signal) => {
    const began = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - began) / 1e9;
    try {
      const output = await compiler.compile(version, input, signal);
      const failed = (output.errors ?? []).some((e) => e.severity === 'error');
      metrics.compiled(version, failed ? 'error' : 'ok', seconds());
      return output;
    } catch (error) {
      metrics.compiled(version, 'error', seconds());
      throw error;
    }
  };
  return measured;
}

/**
 * The drain on SIGTERM, bounded by `graceMs`: the HTTP server stops accepting and finishes
 * the requests in flight (connections still open at the end are closed); the follower stops
 * and gives up its lease at once; the runner stops claiming, waits for its jobs and puts those
 * still running at the end back in the queue, so another worker takes them at once.
 */
export async function drain(parts: {
  app: FastifyInstance;
  serves: boolean;
  follower: ChainFollower | null;
  runner: JobRunner | null;
  graceMs: number;
  logger: Logger;
}): Promise<void> {
  const { app, follower, runner, graceMs, logger } = parts;
  const http = async () => {
    const closed = await within(
      app.close().then(
        () => true,
        () => true,
      ),
      graceMs,
      false,
    );
    if (!closed) {
      logger.warn('drain: requests still open at the end of the grace period were closed');
      app.server.closeAllConnections();
    }
  };
  const follow = async () => {
    if (!follower) return;
    await within(
      follower.stop().catch((err: unknown) => logger.warn({ err }, 'drain: the follower did not stop cleanly')),
      graceMs,
      undefined,
    );
    // Given up even when a round is still in flight: this process is about to end.
    await follower.releaseLease().catch((err: unknown) => logger.warn({ err }, 'drain: the follower lease could not be released; it lapses on its own'));
  };
  const work = async () => {
    await runner?.stop().catch((err: unknown) => logger.warn({ err }, 'drain: the job runner did not stop cleanly'));
  };
  // A worker answers its health and metrics until its jobs are done or released.
  if (parts.serves) await Promise.all([http(), follow(), work()]);
  else {
    await Promise.all([follow(), work()]);
    await http();
  }
}
