/**
 * `solproof start`, step one: build the parts of one service process (its role says which):
 * the limits, the chain (a local devnet when no RPC URL is given), the store, the compilers,
 * the bytecode database, the job runner and the use cases' services. Nothing listens yet.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChainFollower, followerCaughtUp } from '../bytecodeDatabase/chainFollower.js';
import { ChainGeneration } from '../bytecodeDatabase/chainGeneration.js';
import { ContractCreations } from '../bytecodeDatabase/contractCreations.js';
import { createCopyLookup } from '../bytecodeDatabase/copyLookup.js';
import { CopyRecogniser } from '../bytecodeDatabase/recogniseCopies.js';
import { createRecordCheck } from '../bytecodeDatabase/recordCheck.js';
import { checkChainId } from '../chain/checkChainId.js';
import { type Devnet, portIsFree, startDevnet } from '../chain/devnet.js';
import { createRpcChainReader } from '../chain/rpcChainReader.js';
import {
  CompilerCache,
  CompilerList,
  createSolcCompiler,
  createVyperCompiler,
  type SolcCompiler,
  seedInstalledSolc,
  type VyperCompilerService,
} from '../compilers/index.js';
import { type Config, ConfigError, jobLeaseMs, runningJobsPerKey } from '../core/config.js';
import { createLogger, type Logger } from '../core/log.js';
import { dispatchByKind } from '../jobs/dispatch.js';
import { compilesAhead } from '../jobs/earlyCompile.js';
import { type JobRunner, startJobRunner } from '../jobs/queue.js';
import { createBuildVerificationHandler } from '../jobs/runBuildVerification.js';
import { createKnownCompilationRunner, NO_COMPILER } from '../jobs/runKnownCompilation.js';
import { createProxyVerificationHandler } from '../jobs/runProxyVerification.js';
import { createVerificationHandler, type DiagnosisDeps } from '../jobs/runVerification.js';
import { createVyperVerificationHandler, type VyperVerificationDeps } from '../jobs/runVyperVerification.js';
import { createJobWaker, type JobWaker } from '../jobs/wake.js';
import { WorkGate } from '../jobs/workGate.js';
import { MemoryRateLimitStore, type RateLimitStore } from '../limits/rateLimits.js';
import { connectRedisRateLimitStore } from '../limits/redisRateLimits.js';
import { openStore, type Store } from '../store/openStore.js';
import { requeueRunningJobs, runningOfJobsKey } from '../store/verificationJobs.js';
import { AccessControl, KeptAnswers, type Services, VerdictWaits } from '../useCases/index.js';
import { shareableRpcUrl } from '../web/context.js';
import { createPrometheusMetrics, type PrometheusMetrics } from './metrics.js';
import { checkRole, scrapeSources, withCompileMetrics } from './roles.js';

const DEVNET_PORT = 8545;

/** Writes a line for the person who started the service (stdout; logs go to stderr). */
export function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** Everything one service process runs, built and not yet serving. */
export interface ServiceParts {
  config: Config;
  logger: Logger;
  /** Whether this process answers HTTP requests (`all`, `api`) and runs jobs (`all`, `worker`). */
  serves: boolean;
  works: boolean;
  rateLimits: RateLimitStore;
  devnet: Devnet | undefined;
  rpcUrl: string;
  store: Store;
  compiler: SolcCompiler;
  metrics: PrometheusMetrics;
  /** What the doors call. */
  services: Services;
  /** The chain's JSON-RPC URL as the pages may show it. */
  publicRpcUrl: string | undefined;
  runner: JobRunner | null;
  waker: JobWaker;
  /** Verifies copies of verified contracts as they are deployed (workers following the chain). */
  follower: ChainFollower | null;
}

/** Why `--port` cannot be used, and how to choose another. */
export function portInUseText(config: Config): string {
  return `port ${config.port} on ${config.host} is in use (another solproof, or another server?): stop it, or start with another port, e.g. --port ${config.port + 1} (or PORT=${config.port + 1})`;
}

/** Builds the parts of a service process; whatever was started is stopped again when a later part fails. */
export async function buildParts(config: Config): Promise<ServiceParts> {
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

  const { devnet, rpcUrl } = await chainToServe(config);
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
  // The solc installed with the service is a compiler already here: never downloaded again.
  const seeded = await seedInstalledSolc(new CompilerCache(compilerCacheDir), compiler.releases.lookup);
  if (seeded) logger.info({ version: seeded }, 'compiler cache: the installed solc-js build added');
  // Vyper compiles in solc's pool (one bound, the same limits): installed compilers first, then downloads.
  const vyper = createVyperCompiler({
    cacheDir: join(compilerCacheDir, 'vyper'),
    localDir: config.vyperDir || null,
    releaseListUrl: config.vyperReleasesUrl || null,
    pool: compiler.pool,
    logger,
  });
  // Fetched on first demand, not at start: a service nobody asks never contacts the sources for it.
  const compilers = new CompilerList({
    cacheDir: compilerCacheDir,
    mirrorUrl: config.solcMirrorUrl || null,
    npmRegistryUrl: config.npmRegistryUrl || null,
    releases: compiler.releases,
    vyper,
    logger,
  });

  // SQLite means one service process: whatever it left running when it died is ours to redo.
  // With PostgreSQL several processes may share the queue, so expired leases do that instead.
  if (store.dialect === 'sqlite') {
    const requeued = await requeueRunningJobs(store.db);
    if (requeued > 0) logger.info({ requeued }, 'requeued jobs left running by an earlier process');
  }

  let follower: ChainFollower | null = null;
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

  // A submission's compile starts when its job is queued, if this process's own runner has room for it.
  let runner: JobRunner | null = null;
  const ahead = works
    ? compilesAhead(measuredCompiler, {
        room: () => runner !== null && runner.running() < config.jobConcurrency && compiler.stats().queued === 0,
        share: { perKey: runningJobsPerKey(config), runningOfJobsKey: (receipt) => runningOfJobsKey(store.db, receipt) },
        logger,
      })
    : undefined;
  const diagnosis = diagnosisDeps(config, compiler, metrics);
  const vyperHandler = createVyperVerificationHandler({
    store,
    chain,
    compiler: vyper,
    generation,
    recogniser,
    logger,
    retryDelayMs,
    ...(diagnosis ? { diagnosis: vyperDiagnosisDeps(vyper, diagnosis) } : {}),
  });
  const handler = dispatchByKind({
    source: createVerificationHandler({
      vyper: vyperHandler,
      store,
      chain,
      compiler: measuredCompiler,
      ahead,
      generation,
      recogniser,
      logger,
      retryDelayMs,
      diagnosis,
    }),
    build: createBuildVerificationHandler({
      store,
      compiler: measuredCompiler,
      recogniser,
      logger,
      retryDelayMs,
      ...(config.followChain ? { deploymentsRecorded: () => followerCaughtUp(store.db, chain, 10_000) } : {}),
    }),
    proxy: createProxyVerificationHandler({ store, chain, logger, retryDelayMs }),
  });
  // Only workers claim jobs: an API node queues them and never compiles.
  if (works) {
    runner = startJobRunner({
      db: store.db,
      handler,
      concurrency: config.jobConcurrency,
      perKeyRunning: runningJobsPerKey(config),
      leaseMs: jobLeaseMs(config),
      pollMs: config.jobPollMs,
      owner: `solproof-${process.pid}-${randomBytes(4).toString('hex')}`,
      logger,
      maxAttempts: config.jobMaxAttempts,
      retryDelayMs: config.jobRetryDelayMs,
      stopTimeoutMs: config.drainSeconds * 1000,
      metrics: metrics.port,
      ...(ahead ? { onClaimed: (running: ReadonlySet<string>, lookedAt: number) => ahead.keepOnly(running, lookedAt) } : {}),
    });
  }
  const waker = createJobWaker({ runner, ahead, changes: store.changes });
  const runKnown = createKnownCompilationRunner({
    store,
    handler: createVerificationHandler({ store, chain, compiler: NO_COMPILER, generation, recogniser, logger, retryDelayMs }),
    owner: `solproof-api-${process.pid}-${randomBytes(4).toString('hex')}`,
    logger,
  });

  const services: Services = {
    config,
    chainId,
    store,
    chain,
    releases: compiler.releases.lookup,
    records,
    copies,
    creations,
    answers: new KeptAnswers(store.changes, metrics.port),
    jobs: { runKnown, wake: (queued) => waker.wake(queued) },
    access: new AccessControl(store, config, rateLimits),
    limits: rateLimits,
    compilers,
    compiler: measuredCompiler,
    verdicts: new VerdictWaits(store.db, { waitMs: config.statusWaitMs }),
    logger,
  };
  if (works && config.followChain) {
    follower = new ChainFollower({
      db: store.db,
      chain,
      generation,
      recogniser,
      logs: chain,
      logger,
      holder: `solproof-${process.pid}-${randomBytes(4).toString('hex')}`,
      pollMs: config.followPollMs,
      backfillBlocks: config.followBackfillBlocks,
    });
  }
  return {
    config,
    logger,
    serves,
    works,
    rateLimits,
    devnet,
    rpcUrl,
    store,
    compiler,
    metrics,
    services,
    publicRpcUrl: shareableRpcUrl(rpcUrl),
    runner,
    waker,
    follower,
  };
}

/** The node to serve: `--rpc-url`, or a local devnet started now (on 8545 when that port is free). */
async function chainToServe(config: Config): Promise<{ devnet: Devnet | undefined; rpcUrl: string }> {
  if (config.rpcUrl) return { devnet: undefined, rpcUrl: config.rpcUrl };
  // The usual development port when it is free, so wallets and Hardhat configs find it.
  const usual = await portIsFree(DEVNET_PORT);
  say(
    `Starting a local devnet (anvil), as no --rpc-url was given${usual ? '' : `; port ${DEVNET_PORT} is in use (another node?), so it takes a free port`}...`,
  );
  const devnet = await startDevnet({ port: usual ? DEVNET_PORT : 0, chainId: config.chainId ?? 31337, stateFile: join(config.dataDir, 'devnet-state.json') });
  say(`No --rpc-url given: started a local devnet (anvil) at ${devnet.rpcUrl}, chain id ${devnet.chainId}.`);
  if (!usual) say(`  Port ${DEVNET_PORT} was in use: point wallets and Hardhat or Foundry configs at ${devnet.rpcUrl}, not :${DEVNET_PORT}.`);
  say('Funded development accounts (10000 ETH each; these keys are public, use them on this devnet only):');
  for (const account of devnet.accounts.slice(0, 3)) say(`  ${account.address}  private key ${account.privateKey}`);
  return { devnet, rpcUrl: devnet.rpcUrl };
}

/** What diagnosing a failed Vyper verification needs: the same budget, quota and gate as solc's. */
function vyperDiagnosisDeps(vyper: VyperCompilerService, solc: DiagnosisDeps): NonNullable<VyperVerificationDeps['diagnosis']> {
  return {
    compilerAvailable: (version) =>
      Promise.race([
        vyper.resolve(version).then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000).unref()),
      ]),
    budget: solc.budget,
    dailyLimit: solc.dailyLimit,
    gate: solc.gate,
  };
}

/** What diagnosing a failed verification needs (none with `--diagnosis-compiles 0`). */
function diagnosisDeps(config: Config, compiler: SolcCompiler, metrics: PrometheusMetrics): DiagnosisDeps | undefined {
  if (config.diagnosisCompiles <= 0) return undefined;
  return {
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
  };
}
