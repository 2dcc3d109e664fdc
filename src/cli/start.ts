import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AnswerCache } from '../api/answerCache.js';
import { buildWorkerServer, observeRequests, registerHealthRoutes } from '../api/observability.js';
import { API_ACTIONS, buildServer, createAccessControl } from '../api/server.js';
import { ChainFollower, followerCaughtUp } from '../bytecodeDatabase/chainFollower.js';
import { ChainGeneration } from '../bytecodeDatabase/chainGeneration.js';
import { ContractCreations } from '../bytecodeDatabase/contractCreations.js';
import { createCopyLookup } from '../bytecodeDatabase/copyLookup.js';
import { CopyRecogniser } from '../bytecodeDatabase/recogniseCopies.js';
import { createRecordCheck } from '../bytecodeDatabase/recordCheck.js';
import { checkChainId } from '../chain/checkChainId.js';
import { type Devnet, portIsFree, startDevnet } from '../chain/devnet.js';
import { createRpcChainReader } from '../chain/rpcChainReader.js';
import { CompilerList, createSolcCompiler } from '../compilers/index.js';
import { type Config, ConfigError, jobLeaseMs, runningJobsPerKey } from '../core/config.js';
import { createLogger, type Logger } from '../core/log.js';
import { compilesAhead, type QueuedSource } from '../jobs/earlyCompile.js';
import { type JobRunner, startJobRunner } from '../jobs/queue.js';
import { createBuildVerificationHandler } from '../jobs/runBuildVerification.js';
import { createKnownCompilationRunner, NO_COMPILER } from '../jobs/runKnownCompilation.js';
import { createProxyVerificationHandler } from '../jobs/runProxyVerification.js';
import { createVerificationHandler, type DiagnosisDeps } from '../jobs/runVerification.js';
import { WorkGate } from '../jobs/workGate.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../limits/rateLimits.js';
import { connectRedisRateLimitStore } from '../limits/redisRateLimits.js';
import { registerSourcifyRoutes } from '../sourcify/routes.js';
import { openStore, type Store } from '../store/openStore.js';
import { pruneJobPayloads, requeueRunningJobs } from '../store/verificationJobs.js';
import { shareableRpcUrl } from '../web/context.js';
import { registerWebRoutes } from '../web/routes.js';
import { createPrometheusMetrics } from './metrics.js';
import { checkRole, createReadiness, drain, scrapeSources, withCompileMetrics } from './roles.js';

const DEVNET_PORT = 8545;

/**
 * The text of a job that could not be finished (its node or compiler source stayed out of
 * reach, or it failed unexpectedly): it says so rather than passing for a verdict on the code.
 * Source jobs store a reason (the API puts `Fail - Unable to verify. ` before it); proxy jobs
 * store the whole text.
 */
/** Writes a line for the person who started the service (stdout; logs go to stderr). */
function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** `solproof start`: API and verification workers in one process, or one of them (`--role`). */
export async function start(config: Config): Promise<void> {
  checkRole(config);
  const serves = config.role !== 'worker';
  const works = config.role !== 'api';
  const logger = createLogger(config.logLevel);
  mkdirSync(config.dataDir, { recursive: true });

  // Checked before anything starts: processes meant to share one limit must not each run their own.
  const rateLimits: RateLimitStore = config.redisUrl ? await connectRedisRateLimitStore({ url: config.redisUrl, logger }) : new MemoryRateLimitStore();

  // A busy HTTP port is named before anything starts (and again if it is taken meanwhile).
  if (config.port !== 0 && !(await portIsFree(config.port, config.host))) {
    await rateLimits.close();
    throw new ConfigError(portInUseText(config));
  }

  let devnet: Devnet | undefined;
  let rpcUrl = config.rpcUrl;
  if (!rpcUrl) {
    // The usual development port when it is free, so wallets and Hardhat configs find it.
    const usual = await portIsFree(DEVNET_PORT);
    say(
      `Starting a local devnet (anvil), as no --rpc-url was given${usual ? '' : `; port ${DEVNET_PORT} is in use (another node?), so it takes a free port`}...`,
    );
    devnet = await startDevnet({ port: usual ? DEVNET_PORT : 0, chainId: config.chainId ?? 31337, stateFile: join(config.dataDir, 'devnet-state.json') });
    rpcUrl = devnet.rpcUrl;
    say(`No --rpc-url given: started a local devnet (anvil) at ${devnet.rpcUrl}, chain id ${devnet.chainId}.`);
    if (!usual) say(`  Port ${DEVNET_PORT} was in use: point wallets and Hardhat or Foundry configs at ${devnet.rpcUrl}, not :${DEVNET_PORT}.`);
    say('Funded development accounts (10000 ETH each; these keys are public, use them on this devnet only):');
    for (const account of devnet.accounts.slice(0, 3)) say(`  ${account.address}  private key ${account.privateKey}`);
  }

  const chain = createRpcChainReader({ rpcUrl, logger });
  let chainId: number;
  try {
    chainId = await chain.chainId();
    if (config.chainId !== undefined) await checkChainId(chain, config.chainId);
  } catch (e) {
    await devnet?.stop();
    await rateLimits.close();
    throw e;
  }

  say(`Opening the store (${config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`}) and starting the workers...`);
  const store = await openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, logger });
  const compilerCacheDir = join(config.dataDir, 'compilers');
  const compiler = createSolcCompiler({
    cacheDir: compilerCacheDir,
    mirrorUrl: config.solcMirrorUrl || null,
    npmRegistryUrl: config.npmRegistryUrl || null,
    maxThreads: config.compilerThreads,
    timeoutMs: config.compileTimeoutMs,
    maxMemoryMb: config.compileMemoryMb,
    warmMemoryMb: config.warmCompilersMb,
    warmUpCompiles: config.warmUpCompiles,
    logger,
  });
  // Fetched on first demand, not at start: a service nobody asks never contacts the sources for it.
  const compilers = new CompilerList({
    cacheDir: compilerCacheDir,
    mirrorUrl: config.solcMirrorUrl || null,
    npmRegistryUrl: config.npmRegistryUrl || null,
    releases: compiler.releases,
    logger,
  });

  // SQLite means one service process: whatever it left running when it died is ours to redo.
  // With PostgreSQL several processes may share the queue, so expired leases do that instead.
  if (store.dialect === 'sqlite') {
    const requeued = await requeueRunningJobs(store.db);
    if (requeued > 0) logger.info({ requeued }, 'requeued jobs left running by an earlier process');
  }

  // Counted per process; the queue and the follower are read from the store when scraped.
  const metrics = createPrometheusMetrics({
    role: config.role,
    sources: scrapeSources({ store, chain, ...(works ? { compiler, follower: () => follower } : {}) }),
  });
  const measuredCompiler = withCompileMetrics(compiler, metrics.port);

  const retryDelayMs = config.jobRetryDelayMs;
  const generation = new ChainGeneration(store.db, chain);
  // Records are served only while their addresses hold the code they describe; nobody following the chain, reads notice a restart.
  const records = createRecordCheck({ db: store.db, chain, generation, logger, windowMs: config.recordCheckMs, watchResets: !config.followChain });
  const recogniser = new CopyRecogniser({ db: store.db, chain, generation, logger, records, metrics: metrics.port });
  const copies = createCopyLookup({ recogniser, logger });
  const creations = new ContractCreations({ db: store.db, chain, generation, logger });
  const diagnosis: DiagnosisDeps | undefined =
    config.diagnosisCompiles > 0
      ? {
          releases: compiler.releases.lookup,
          // A compiler that is cached, or arrives within 15 s (it stays cached for the resubmission).
          compilerAvailable: (version) =>
            Promise.race([
              compiler.resolve(version).then(
                () => true,
                () => false,
              ),
              new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref()),
            ]),
          budget: { compiles: config.diagnosisCompiles, ms: config.diagnosisSeconds * 1000 },
          dailyLimit: config.dailyDiagnosisQuota,
          gate: new WorkGate(),
          metrics: metrics.port,
        }
      : undefined;
  // A submission's compile starts when its job is queued, if this process's own runner has room for it.
  const ahead = works
    ? compilesAhead(measuredCompiler, { room: () => runner !== null && runner.running() < config.jobConcurrency && compiler.stats().queued === 0 })
    : undefined;
  const verifySource = createVerificationHandler({
    store,
    chain,
    compiler: measuredCompiler,
    ...(ahead ? { ahead } : {}),
    generation,
    recogniser,
    logger,
    retryDelayMs,
    ...(diagnosis ? { diagnosis } : {}),
  });
  const runKnown = createKnownCompilationRunner({
    store,
    handler: createVerificationHandler({ store, chain, compiler: NO_COMPILER, generation, recogniser, logger, retryDelayMs }),
    owner: `solproof-api-${process.pid}-${randomBytes(4).toString('hex')}`,
    logger,
  });
  const verifyBuild = createBuildVerificationHandler({
    store,
    compiler: measuredCompiler,
    recogniser,
    logger,
    retryDelayMs,
    ...(config.followChain ? { deploymentsRecorded: () => followerCaughtUp(store.db, chain, 10_000) } : {}),
  });
  const verifyProxy = createProxyVerificationHandler({ store, chain, logger, retryDelayMs });
  // Only workers claim jobs: an API node queues them and never compiles.
  const runner: JobRunner | null = !works
    ? null
    : startJobRunner({
        db: store.db,
        handler: (job) => (job.kind === 'proxy' ? verifyProxy(job) : job.kind === 'build' ? verifyBuild(job) : verifySource(job)),
        concurrency: config.jobConcurrency,
        perKeyRunning: runningJobsPerKey(config),
        leaseMs: jobLeaseMs(config),
        pollMs: 1000,
        owner: `solproof-${process.pid}-${randomBytes(4).toString('hex')}`,
        logger,
        maxAttempts: config.jobMaxAttempts,
        retryDelayMs: config.jobRetryDelayMs,
        stopTimeoutMs: config.drainSeconds * 1000,
        metrics: metrics.port,
      });

  // A job this process wants run wakes its own runner and, on PostgreSQL, every worker's.
  const wakeJobs = (queued?: QueuedSource): void => {
    if (queued) ahead?.start(queued);
    runner?.wake();
    void store.changes.announceJobQueued();
  };
  const stopWaking = runner ? store.changes.onJobQueued(() => runner.wake()) : () => {};

  // Turned on by its own option, whatever the log level.
  const accessLog = config.accessLog ? logger.child({ log: 'access' }, { level: 'info' }) : null;
  let draining = false;
  const ready = createReadiness({ store, chain, rateLimits, draining: () => draining });
  const healthRoutes = { ready, metrics: metrics.render };
  const access = createAccessControl({ store, config }, rateLimits);
  const app = !serves
    ? await buildWorkerServer({ ...healthRoutes, liveness: { chainId }, metricsPort: metrics.port, accessLog })
    : await buildServer(
        {
          config,
          chainId,
          store,
          chain,
          releases: compiler.releases.lookup,
          wakeJobs,
          copies,
          records,
          creations,
          runKnown,
          answers: new AnswerCache(store.changes, metrics.port),
          logger,
        },
        { rateLimits, access },
      );
  if (serves) {
    observeRequests(app, { metrics: metrics.port, accessLog, apiActions: API_ACTIONS });
    registerHealthRoutes(app, healthRoutes);
  }
  // The explorer shares the HTTP server and the limits with the API; neither knows the other.
  // The Verify & Publish form is handed to the API in-process: the same checks, limits and quota as over HTTP.
  const submitVerification = async (params: Record<string, string>, client: string) => {
    const res = await app.inject({
      method: 'POST',
      url: '/api',
      payload: new URLSearchParams(params).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      remoteAddress: client,
    });
    return JSON.parse(res.body) as { status: string; message: string; result: unknown };
  };
  const checkApiKey = (apiKey: string, client: string) => access.checkKey(apiKey, client);
  if (serves) {
    await registerWebRoutes(
      app,
      { config, chainId, publicRpcUrl: shareableRpcUrl(rpcUrl), store, chain, logger, compilers, copies, records, submitVerification, checkApiKey },
      rateLimits,
    );
    // Sourcify's API, from the same store and jobs, under /sourcify (keyless, on the same per-address limits).
    await registerSourcifyRoutes(app, {
      config,
      chainId,
      store,
      releases: compiler.releases.lookup,
      wakeJobs,
      copies,
      records,
      runKnown,
      limits: rateLimits,
      chain,
      creations,
      logger,
    });
  }
  // Copies of verified contracts are verified as they are deployed.
  const follower =
    works && config.followChain
      ? new ChainFollower({
          db: store.db,
          chain,
          generation,
          recogniser,
          logger,
          holder: `solproof-${process.pid}-${randomBytes(4).toString('hex')}`,
          pollMs: config.followPollMs,
          backfillBlocks: config.followBackfillBlocks,
        })
      : null;
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
    say(`solproof worker for chain ${chainId}: health and metrics at http://${config.host}:${port}/health/ready and /metrics (storage: ${store.dialect})`);
  else {
    say(
      `solproof is serving chain ${chainId} at http://${config.host}:${port}/api (storage: ${store.dialect}, rate limits: ${rateLimits.kind}, data dir ${config.dataDir})`,
    );
    for (const line of bannerLines({
      base: config.publicUrl.replace(/\/+$/, '') || `http://${config.host}:${port}`,
      rpcUrl,
      devnet: devnet !== undefined,
      config,
    }))
      say(line);
  }

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) return;
    stopping = true;
    draining = true;
    logger.info({ signal, role: config.role, drainSeconds: config.drainSeconds }, 'shutting down: draining');
    if (pruneTimer) clearInterval(pruneTimer);
    stopWaking();
    await drain({ app, serves, follower, runner, graceMs: config.drainSeconds * 1000, logger });
    await rateLimits.close().catch(() => undefined);
    await compiler.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    await devnet?.stop();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

/** Why `--port` cannot be used, and how to choose another. */
function portInUseText(config: Config): string {
  return `port ${config.port} on ${config.host} is in use (another solproof, or another server?): stop it, or start with another port, e.g. --port ${config.port + 1} (or PORT=${config.port + 1})`;
}

/** What the person who started the service needs next: where everything is, and how to get a key. */
export function bannerLines(b: { base: string; rpcUrl: string; devnet: boolean; config: Pick<Config, 'dataDir' | 'selfServiceKeys'> }): string[] {
  const dataDir = b.config.dataDir === resolve('.data') ? '' : ` --data-dir ${b.config.dataDir}`;
  return [
    '',
    `  Explorer:    ${b.base}/`,
    `  API:         ${b.base}/api`,
    `  Chain RPC:   ${b.rpcUrl}${b.devnet ? ' (the local devnet)' : ''}`,
    '',
    '  Next: create an API key in another terminal (the key is the last line printed):',
    `    npm run solproof -- keys create --owner you${dataDir}`,
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
