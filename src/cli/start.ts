/**
 * `solproof start`: API and verification workers in one process, or one of them (`--role`).
 * Two steps: build the parts (parts.ts), then serve them: the HTTP doors (Etherscan's /api,
 * Sourcify's API, the explorer) or a worker's health and metrics, the job runner and the chain
 * follower, until a signal drains and stops them.
 */
import { resolve } from 'node:path';
import { buildWorkerServer, observeRequests, registerHealthRoutes } from '../api/observability.js';
import { API_ACTIONS, buildServer } from '../api/server.js';
import { type Config, ConfigError } from '../core/config.js';
import type { Logger } from '../core/log.js';
import { registerSourcifyRoutes } from '../sourcify/routes.js';
import { listApiKeys } from '../store/apiKeys.js';
import type { Store } from '../store/openStore.js';
import { pruneJobPayloads } from '../store/verificationJobs.js';
import { registerWebRoutes } from '../web/routes.js';
import { buildParts, portInUseText, type ServiceParts, say } from './parts.js';
import { createReadiness, drain } from './roles.js';

export async function start(config: Config): Promise<void> {
  await serve(await buildParts(config));
}

/** Serves the parts until SIGINT or SIGTERM, which drain the process and stop it. */
async function serve(parts: ServiceParts): Promise<void> {
  const { config, logger, serves, works, rateLimits, store, compiler, metrics, services, runner, waker, follower, devnet } = parts;
  // Turned on by its own option, whatever the log level.
  const accessLog = config.accessLog ? logger.child({ log: 'access' }, { level: 'info' }) : null;
  let draining = false;
  const ready = createReadiness({ store, chain: services.chain, rateLimits, draining: () => draining });
  const healthRoutes = { ready, metrics: metrics.render };
  const app = serves
    ? await buildServer(services)
    : await buildWorkerServer({ ...healthRoutes, liveness: { chainId: services.chainId }, metricsPort: metrics.port, accessLog });
  if (serves) {
    observeRequests(app, { metrics: metrics.port, accessLog, apiActions: API_ACTIONS });
    registerHealthRoutes(app, healthRoutes);
    // The explorer and Sourcify's API share the HTTP server, the limits and the use cases with /api.
    await registerWebRoutes(app, { ...services, publicRpcUrl: parts.publicRpcUrl });
    await registerSourcifyRoutes(app, services);
  }
  follower?.start();
  // Sources of finished jobs older than --job-payload-days are dropped (receipts still answer).
  const pruneTimer = works && config.jobPayloadDays > 0 ? schedulePayloadPruning(store, config.jobPayloadDays, logger) : null;
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'EADDRINUSE') throw error;
    throw new ConfigError(portInUseText(config));
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (!serves)
    say(
      `solproof worker for chain ${services.chainId}: health and metrics at http://${config.host}:${port}/health/ready and /metrics (storage: ${store.dialect})`,
    );
  else {
    say(
      `solproof is serving chain ${services.chainId} at http://${config.host}:${port}/api (pid ${process.pid}; storage: ${store.dialect}, rate limits: ${rateLimits.kind}, data dir ${config.dataDir})`,
    );
    const keys = (await listApiKeys(store.db)).filter((k) => k.revokedAt === null).length;
    for (const line of bannerLines({
      base: config.publicUrl.replace(/\/+$/, '') || `http://${config.host}:${port}`,
      rpcUrl: parts.rpcUrl,
      devnet: devnet !== undefined,
      config,
      keys,
      pid: process.pid,
    }))
      say(line);
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    draining = true;
    logger.info({ signal, role: config.role, drainSeconds: config.drainSeconds }, 'shutting down: draining');
    say(`solproof is stopping (${signal}): finishing requests and jobs in flight, at most ${config.drainSeconds} s`);
    if (pruneTimer) clearInterval(pruneTimer);
    waker.stop();
    // Status checks waiting for a verdict are answered now: they must not hold the drain.
    services.verdicts.stop();
    await drain({ app, serves, follower, runner, graceMs: config.drainSeconds * 1000, logger });
    await rateLimits.close().catch(() => undefined);
    await compiler.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await devnet?.stop();
    say(`solproof stopped (pid ${process.pid})`);
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** What the person who started the service needs next: where everything is, and how to get a key. */
export function bannerLines(b: {
  base: string;
  rpcUrl: string;
  devnet: boolean;
  config: Pick<Config, 'dataDir' | 'selfServiceKeys'>;
  /** Keys in the store, not revoked. */
  keys: number;
  pid: number;
}): string[] {
  const dataDir = b.config.dataDir === resolve('.data') ? '' : ` --data-dir ${b.config.dataDir}`;
  return [
    '',
    `  Explorer:    ${b.base}/`,
    `  API:         ${b.base}/api`,
    `  Chain RPC:   ${b.rpcUrl}${b.devnet ? ' (the local devnet)' : ''}`,
    `  Stop it:     Ctrl-C, or kill ${b.pid}${b.devnet ? ' (the devnet stops with it)' : ''}`,
    '',
    ...(b.keys > 0
      ? [
          `  API keys:    ${b.keys} in this store (list them: npm run solproof -- keys list${dataDir})`,
          `    another: npm run solproof -- keys create --owner NAME${dataDir}`,
        ]
      : ['  Next: create an API key in another terminal (the key is the last line printed):', `    npm run solproof -- keys create --owner you${dataDir}`]),
    ...(b.config.selfServiceKeys > 0
      ? [`  Visitors create free keys at ${b.base}/keys (${b.config.selfServiceKeys} per address per day: --self-service-keys).`]
      : []),
    '',
  ];
}

/** Prunes old job payloads once now and then hourly; returns the timer. */
function schedulePayloadPruning(store: Store, days: number, logger: Logger): NodeJS.Timeout {
  const prune = (): void => {
    pruneJobPayloads(store.db, { finishedBefore: Date.now() - days * 86_400_000 })
      .then((pruned) => {
        if (pruned > 0) logger.info({ pruned, days }, 'dropped the sources of old finished jobs');
      })
      .catch((error: unknown) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'could not prune old job payloads'));
  };
  prune();
  const timer = setInterval(prune, 3_600_000);
  timer.unref();
  return timer;
}
