import { cpus } from 'node:os';
import { resolve } from 'node:path';

/**
 * A job's lease when none is configured. A dead worker's job is taken over this long after its
 * last renewal, whatever the compile time limit: a running job renews it every third of it, and
 * its compiles run in threads that leave the renewals on time (BullMQ's lock is 30 s too).
 */
export const DEFAULT_JOB_LEASE_MS = 30_000;

/** Everything the service can be told, from CLI flags and environment variables. */
export interface Config {
  /** JSON-RPC URL of the chain; undefined means: start a local devnet. */
  rpcUrl?: string;
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL selects PostgreSQL; otherwise SQLite in dataDir. */
  databaseUrl?: string;
  /** When given, checked against the node's chain id at start. */
  chainId?: number;
  /** Public base URL used in texts and pages ('' = derived from the request). */
  publicUrl: string;
  /** Maximum request body in bytes. */
  bodyLimit: number;
  /** solc-bin mirror base URL; '' disables the mirror. */
  solcMirrorUrl: string;
  npmRegistryUrl: string;
  /** A directory of installed Vyper compilers (`<dir>/<release>/bin/vyper`, or release binaries); '' for none. */
  vyperDir: string;
  /** The list of Vyper releases (GitHub's releases API shape) binaries are downloaded from; '' turns downloads off. */
  vyperReleasesUrl: string;
  compilerThreads: number;
  compileTimeoutMs: number;
  compileMemoryMb: number;
  /** Memory the compilers kept loaded between compiles may hold, all compiler threads together; past it the least recently used are dropped. */
  warmCompilersMb: number;
  /** Small compiles run while idle after a compiler is loaded, so that V8 optimises it (0: none). */
  warmUpCompiles: number;
  /** Verification jobs run at once by this process. */
  jobConcurrency: number;
  /** First wait before retrying a job whose node or compiler source could not be reached (doubles, at most 60 s). */
  jobRetryDelayMs: number;
  /** Attempts before such a job fails with a text saying why. */
  jobMaxAttempts: number;
  /** Keyless read actions: one request per this many ms per client address. */
  keylessIntervalMs: number;
  /** Requests per second per key by tier. */
  rateFree: number;
  ratePro: number;
  /**
   * A key's share: its jobs run at once across every worker while another key's job waits (0:
   * all job slots but one, at least one). Past it a key's jobs run only in slots nobody else waits for.
   */
  keyRunningJobs: number;
  /** Jobs of one key waiting or running; more submissions are refused until some finish (0: no limit). */
  keyQueuedJobs: number;
  /** Daily verification submissions per key. */
  dailyVerifyQuota: number;
  dailyProxyQuota: number;
  /** Daily dry runs (`dryrun=1`) per key: counted apart from the verifications, which they do not use. */
  dailyDryRunQuota: number;
  /** Diagnoses of failed verifications (dry runs' included) per key per day; past it a failure is answered undiagnosed. */
  dailyDiagnosisQuota: number;
  /** Verifications through the keyless Sourcify API (`/sourcify/v2/verify`) per client address per UTC day (0: no daily limit). */
  sourcifyDailyQuota: number;
  /** Requests per second per client address to the Sourcify API (its keyless rate). */
  sourcifyRate: number;
  /** Largest body the keyless Sourcify API reads, in bytes (what its clients send, with room; bounded apart from `bodyLimit`). */
  sourcifyBodyLimit: number;
  /** Explorer requests that may reach the node (contract calls, address pages) per second per client; the CSV export once per 10 s per client. */
  webRate: number;
  /** The explorer's receipt event streams open at once, shared fairly among clients (at most 8 each). */
  receiptStreams: number;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** redis:// URL: rate limits shared by every process using it; undefined keeps them in memory. */
  redisUrl?: string;
  /** Watch new blocks and verify copies of verified contracts as they are deployed. */
  followChain: boolean;
  /** How often the chain follower looks for new blocks. */
  followPollMs: number;
  /** On a first start, how many blocks before the head the follower begins at. */
  followBackfillBlocks: number;
  /** A verified record's address is compared with the code it describes at most once per this many ms (0: at every read). */
  recordCheckMs: number;
  /** Finished jobs keep their submitted sources this many days, then only a reference (0: forever). */
  jobPayloadDays: number;
  /** Compiles one failed verification's diagnosis may use (0 turns diagnoses off). */
  diagnosisCompiles: number;
  /** Seconds one diagnosis may take. */
  diagnosisSeconds: number;
  /**
   * A submission for an address without code waits this long for it to appear before it is
   * refused: right after a deployment a node behind a load balancer may not have it yet.
   */
  codeWaitMs: number;
  /** A status check of a job still running, made shortly after its submission, waits up to this long for the verdict (0: answers at once). */
  statusWaitMs: number;
  /** Free keys a visitor may create on the explorer's `/keys` page per client address per UTC day (0: off, keys come from the operator). */
  selfServiceKeys: number;
  /** What this process does: `all` serves and works, `api` serves and queues, `worker` runs jobs and the chain follower. */
  role: ServiceRole;
  /** On SIGTERM, how long running requests and jobs may take to finish; jobs still running then are released at once. */
  drainSeconds: number;
  /** How long a claimed job is held without renewal before another worker may take it; a running job renews it every third of it. */
  jobLeaseMs: number;
  /** How often a worker looks for due jobs besides being woken (a submission wakes every worker at once). */
  jobPollMs: number;
  /** One log line per HTTP request (method, route, status, time, key id). */
  accessLog: boolean;
  /** The JSON log's level. */
  logLevel: string;
}

/** What one service process does. */
export type ServiceRole = 'all' | 'api' | 'worker';
export const SERVICE_ROLES: readonly ServiceRole[] = ['all', 'api', 'worker'];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A configuration option: its flag, its environment variable and how to read it. */
interface OptionSpec {
  key: keyof Config;
  flag: string;
  env: string;
  kind: 'string' | 'int' | 'list' | 'bool';
  help: string;
}

export const CONFIG_OPTIONS: readonly OptionSpec[] = [
  { key: 'rpcUrl', flag: 'rpc-url', env: 'SOLPROOF_RPC_URL', kind: 'string', help: 'JSON-RPC URL of the chain (default: start a local devnet)' },
  { key: 'port', flag: 'port', env: 'PORT', kind: 'int', help: 'HTTP port (default 8080)' },
  { key: 'host', flag: 'host', env: 'SOLPROOF_HOST', kind: 'string', help: 'address to listen on (default 127.0.0.1)' },
  { key: 'dataDir', flag: 'data-dir', env: 'SOLPROOF_DATA_DIR', kind: 'string', help: 'SQLite file and compiler cache (default ./.data)' },
  { key: 'databaseUrl', flag: 'database-url', env: 'DATABASE_URL', kind: 'string', help: 'postgres:// URL to use PostgreSQL instead of SQLite' },
  { key: 'chainId', flag: 'chain-id', env: 'SOLPROOF_CHAIN_ID', kind: 'int', help: 'expected chain id, checked against the node' },
  { key: 'publicUrl', flag: 'public-url', env: 'SOLPROOF_PUBLIC_URL', kind: 'string', help: 'public base URL of the service' },
  { key: 'bodyLimit', flag: 'body-limit', env: 'SOLPROOF_BODY_LIMIT', kind: 'int', help: 'maximum request body in bytes (default 16 MiB)' },
  { key: 'solcMirrorUrl', flag: 'solc-mirror', env: 'SOLPROOF_SOLC_MIRROR', kind: 'string', help: "solc-bin mirror base URL ('' to disable)" },
  { key: 'npmRegistryUrl', flag: 'npm-registry', env: 'SOLPROOF_NPM_REGISTRY', kind: 'string', help: 'npm registry for solc packages' },
  { key: 'vyperDir', flag: 'vyper-dir', env: 'SOLPROOF_VYPER_DIR', kind: 'string', help: 'directory of installed Vyper compilers' },
  {
    key: 'vyperReleasesUrl',
    flag: 'vyper-releases',
    env: 'SOLPROOF_VYPER_RELEASES',
    kind: 'string',
    help: "Vyper release list to download compilers from ('' to disable)",
  },
  { key: 'compilerThreads', flag: 'compiler-threads', env: 'SOLPROOF_COMPILER_THREADS', kind: 'int', help: 'compiler worker threads (default: cores)' },
  {
    key: 'compileTimeoutMs',
    flag: 'compile-timeout-ms',
    env: 'SOLPROOF_COMPILE_TIMEOUT_MS',
    kind: 'int',
    help: 'time limit of one compilation (default 120000)',
  },
  { key: 'compileMemoryMb', flag: 'compile-memory-mb', env: 'SOLPROOF_COMPILE_MEMORY_MB', kind: 'int', help: 'heap cap of a compiler worker (default 2048)' },
  {
    key: 'warmCompilersMb',
    flag: 'warm-compilers-mb',
    env: 'SOLPROOF_WARM_COMPILERS_MB',
    kind: 'int',
    help: 'memory the compilers kept loaded may hold, all compiler threads together (default 1024)',
  },
  {
    key: 'warmUpCompiles',
    flag: 'warm-up-compiles',
    env: 'SOLPROOF_WARM_UP_COMPILES',
    kind: 'int',
    help: 'small compiles run while idle after a compiler is loaded, so that its code is optimised before verifications wait on it (default 16; 0: none)',
  },
  { key: 'jobConcurrency', flag: 'job-concurrency', env: 'SOLPROOF_JOB_CONCURRENCY', kind: 'int', help: 'verification jobs run at once (default: cores)' },
  {
    key: 'jobRetryDelayMs',
    flag: 'job-retry-delay-ms',
    env: 'SOLPROOF_JOB_RETRY_DELAY_MS',
    kind: 'int',
    help: 'first wait before retrying a job when the node is unreachable (default 5000, doubling)',
  },
  { key: 'jobMaxAttempts', flag: 'job-max-attempts', env: 'SOLPROOF_JOB_MAX_ATTEMPTS', kind: 'int', help: 'attempts before such a job fails (default 8)' },
  {
    key: 'keylessIntervalMs',
    flag: 'keyless-interval-ms',
    env: 'SOLPROOF_KEYLESS_INTERVAL_MS',
    kind: 'int',
    help: 'keyless reads: one per this many ms per client (default 5000)',
  },
  { key: 'rateFree', flag: 'rate-free', env: 'SOLPROOF_RATE_FREE', kind: 'int', help: 'requests per second for free keys (default 5)' },
  { key: 'ratePro', flag: 'rate-pro', env: 'SOLPROOF_RATE_PRO', kind: 'int', help: 'requests per second for pro keys (default 30)' },
  {
    key: 'keyRunningJobs',
    flag: 'key-running-jobs',
    env: 'SOLPROOF_KEY_RUNNING_JOBS',
    kind: 'int',
    help: "one key's jobs run at once while another key's job waits; past it, only slots nobody waits for (default: all job slots but one)",
  },
  { key: 'keyQueuedJobs', flag: 'key-queued-jobs', env: 'SOLPROOF_KEY_QUEUED_JOBS', kind: 'int', help: "one key's jobs waiting or running (default 50)" },
  {
    key: 'dailyVerifyQuota',
    flag: 'daily-verify-quota',
    env: 'SOLPROOF_DAILY_VERIFY_QUOTA',
    kind: 'int',
    help: 'verifysourcecode submissions per key per UTC day (default 100)',
  },
  {
    key: 'sourcifyDailyQuota',
    flag: 'sourcify-daily-quota',
    env: 'SOLPROOF_SOURCIFY_DAILY_QUOTA',
    kind: 'int',
    help: 'verifications through the keyless Sourcify API per client address per UTC day (default 100)',
  },
  {
    key: 'sourcifyRate',
    flag: 'sourcify-rate',
    env: 'SOLPROOF_SOURCIFY_RATE',
    kind: 'int',
    help: 'requests per second per client address to the keyless Sourcify API (default 5)',
  },
  {
    key: 'sourcifyBodyLimit',
    flag: 'sourcify-body-limit',
    env: 'SOLPROOF_SOURCIFY_BODY_LIMIT',
    kind: 'int',
    help: 'largest request body the keyless Sourcify API reads, in bytes (default 4 MiB)',
  },
  {
    key: 'dailyProxyQuota',
    flag: 'daily-proxy-quota',
    env: 'SOLPROOF_DAILY_PROXY_QUOTA',
    kind: 'int',
    help: 'verifyproxycontract submissions per key per UTC day (default 100)',
  },
  {
    key: 'dailyDryRunQuota',
    flag: 'daily-dry-run-quota',
    env: 'SOLPROOF_DAILY_DRY_RUN_QUOTA',
    kind: 'int',
    help: 'dry runs (verifysourcecode with dryrun=1) per key per UTC day (default 100)',
  },
  {
    key: 'dailyDiagnosisQuota',
    flag: 'daily-diagnosis-quota',
    env: 'SOLPROOF_DAILY_DIAGNOSIS_QUOTA',
    kind: 'int',
    help: 'diagnoses of failed verifications that search (more than 4 compiles), dry runs included, per key per UTC day (default 100)',
  },
  {
    key: 'webRate',
    flag: 'web-rate',
    env: 'SOLPROOF_WEB_RATE',
    kind: 'int',
    help: 'explorer contract calls and address pages per second per client (default 10)',
  },
  {
    key: 'receiptStreams',
    flag: 'receipt-streams',
    env: 'SOLPROOF_RECEIPT_STREAMS',
    kind: 'int',
    help: 'receipt event streams open at once, shared fairly among clients, at most 8 each (default 500)',
  },
  {
    key: 'trustedProxies',
    flag: 'trusted-proxies',
    env: 'SOLPROOF_TRUSTED_PROXIES',
    kind: 'list',
    help: 'comma-separated reverse-proxy addresses whose X-Forwarded-For is trusted',
  },
  { key: 'redisUrl', flag: 'redis-url', env: 'REDIS_URL', kind: 'string', help: 'redis:// URL to share rate limits between service processes' },
  {
    key: 'followChain',
    flag: 'follow-chain',
    env: 'SOLPROOF_FOLLOW_CHAIN',
    kind: 'bool',
    help: 'watch new blocks and verify copies of verified contracts as they appear (default true)',
  },
  {
    key: 'followPollMs',
    flag: 'follow-poll-ms',
    env: 'SOLPROOF_FOLLOW_POLL_MS',
    kind: 'int',
    help: 'how often the chain follower looks for new blocks (default 1000)',
  },
  {
    key: 'followBackfillBlocks',
    flag: 'follow-backfill-blocks',
    env: 'SOLPROOF_FOLLOW_BACKFILL_BLOCKS',
    kind: 'int',
    help: 'on a first start, blocks before the head the follower begins at (default 10000)',
  },
  {
    key: 'recordCheckMs',
    flag: 'record-check-ms',
    env: 'SOLPROOF_RECORD_CHECK_MS',
    kind: 'int',
    help: 'a record is served only while its address holds the code it describes, compared at most once per this many ms per address; 0 at every read (default 2000)',
  },
  {
    key: 'diagnosisCompiles',
    flag: 'diagnosis-compiles',
    env: 'SOLPROOF_DIAGNOSIS_COMPILES',
    kind: 'int',
    help: "compiles a failed verification's diagnosis may use; 0 turns diagnoses off (default 24)",
  },
  {
    key: 'diagnosisSeconds',
    flag: 'diagnosis-seconds',
    env: 'SOLPROOF_DIAGNOSIS_SECONDS',
    kind: 'int',
    help: 'seconds a diagnosis may take, its compile in flight included: that is stopped at the limit (default 60)',
  },
  {
    key: 'codeWaitMs',
    flag: 'code-wait-ms',
    env: 'SOLPROOF_CODE_WAIT_MS',
    kind: 'int',
    help: 'a submission for an address without code waits this long for it before it is refused (default 3000)',
  },
  {
    key: 'statusWaitMs',
    flag: 'status-wait-ms',
    env: 'SOLPROOF_STATUS_WAIT_MS',
    kind: 'int',
    help: 'a status check of a job still running, in its first 2 minutes, waits up to this long for the verdict; 0 answers at once (default 10000)',
  },
  {
    key: 'jobPayloadDays',
    flag: 'job-payload-days',
    env: 'SOLPROOF_JOB_PAYLOAD_DAYS',
    kind: 'int',
    help: 'days finished jobs keep their submitted sources; 0 keeps them (default 7)',
  },
  {
    key: 'selfServiceKeys',
    flag: 'self-service-keys',
    env: 'SOLPROOF_SELF_SERVICE_KEYS',
    kind: 'int',
    help: 'free API keys a visitor may create at /keys per client address per UTC day (default 0: off)',
  },
  {
    key: 'role',
    flag: 'role',
    env: 'SOLPROOF_ROLE',
    kind: 'string',
    help: 'all: serve and verify; api: serve and queue, never compile; worker: run jobs and the chain follower, serve only health and metrics (api and worker need PostgreSQL) (default all)',
  },
  {
    key: 'drainSeconds',
    flag: 'drain-seconds',
    env: 'SOLPROOF_DRAIN_SECONDS',
    kind: 'int',
    help: 'on SIGTERM, seconds running requests and jobs may take to finish; jobs still running then are released at once (default 30)',
  },
  {
    key: 'jobLeaseMs',
    flag: 'job-lease-ms',
    env: 'SOLPROOF_JOB_LEASE_MS',
    kind: 'int',
    help: "how long a dead worker's job stays claimed before another worker takes it; a running job renews it every third (default 30000)",
  },
  {
    key: 'jobPollMs',
    flag: 'job-poll-ms',
    env: 'SOLPROOF_JOB_POLL_MS',
    kind: 'int',
    help: 'how often a worker looks for due jobs besides being woken by a submission (default 1000)',
  },
  {
    key: 'accessLog',
    flag: 'access-log',
    env: 'SOLPROOF_ACCESS_LOG',
    kind: 'bool',
    help: 'log every HTTP request: method, route, status, time, key id (default false)',
  },
  {
    key: 'logLevel',
    flag: 'log-level',
    env: 'SOLPROOF_LOG_LEVEL',
    kind: 'string',
    help: 'log level: fatal, error, warn, info, debug, trace or silent (default info)',
  },
];

export function defaultConfig(): Config {
  const cores = Math.max(1, cpus().length);
  return {
    host: '127.0.0.1',
    port: 8080,
    dataDir: resolve('.data'),
    publicUrl: '',
    bodyLimit: 16 * 1024 * 1024,
    solcMirrorUrl: 'https://binaries.soliditylang.org',
    npmRegistryUrl: 'https://registry.npmjs.org',
    vyperDir: '',
    vyperReleasesUrl: 'https://api.github.com/repos/vyperlang/vyper/releases?per_page=100',
    compilerThreads: cores,
    compileTimeoutMs: 120_000,
    compileMemoryMb: 2048,
    warmCompilersMb: 1024,
    warmUpCompiles: 16,
    jobConcurrency: cores,
    jobRetryDelayMs: 5000,
    jobMaxAttempts: 8,
    keylessIntervalMs: 5000,
    rateFree: 5,
    ratePro: 30,
    keyRunningJobs: 0,
    keyQueuedJobs: 50,
    dailyVerifyQuota: 100,
    dailyProxyQuota: 100,
    dailyDryRunQuota: 100,
    dailyDiagnosisQuota: 100,
    sourcifyDailyQuota: 100,
    sourcifyRate: 5,
    sourcifyBodyLimit: 4 * 1024 * 1024,
    webRate: 10,
    receiptStreams: 500,
    trustedProxies: [],
    followChain: true,
    followPollMs: 1000,
    followBackfillBlocks: 10_000,
    recordCheckMs: 2000,
    diagnosisCompiles: 24,
    diagnosisSeconds: 60,
    jobPayloadDays: 7,
    codeWaitMs: 3000,
    statusWaitMs: 10_000,
    selfServiceKeys: 0,
    role: 'all',
    drainSeconds: 30,
    jobLeaseMs: DEFAULT_JOB_LEASE_MS,
    jobPollMs: 1000,
    accessLog: false,
    logLevel: 'info',
  };
}

export class ConfigError extends Error {}

/**
 * Builds the configuration: defaults, then environment variables, then flags
 * (`--name value` or `--name=value`). Unknown flags and malformed numbers are errors.
 */
/** The longest a status check may wait: below the 30 s after which the service closes an idle socket. */
export const MAX_STATUS_WAIT_MS = 20_000;

export function loadConfig(flags: Record<string, string | undefined>, env: NodeJS.ProcessEnv = process.env): Config {
  const config = defaultConfig() as unknown as Record<string, unknown>;
  const known = new Set(CONFIG_OPTIONS.map((o) => o.flag));
  for (const name of Object.keys(flags)) {
    if (!known.has(name)) throw new ConfigError(`unknown option --${name}`);
  }
  for (const opt of CONFIG_OPTIONS) {
    const raw = flags[opt.flag] ?? env[opt.env];
    if (raw === undefined) continue;
    if (opt.kind === 'string') {
      config[opt.key] = raw;
    } else if (opt.kind === 'bool') {
      const v = raw.trim().toLowerCase();
      if (!['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'].includes(v))
        throw new ConfigError(`--${opt.flag} (${opt.env}) must be true or false, got "${raw}"`);
      config[opt.key] = ['true', '1', 'yes', 'on'].includes(v);
    } else if (opt.kind === 'list') {
      config[opt.key] = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    } else {
      if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`--${opt.flag} (${opt.env}) must be a whole number, got "${raw}"`);
      config[opt.key] = Number(raw.trim());
    }
  }
  const result = config as unknown as Config;
  if (result.rpcUrl === '') delete result.rpcUrl;
  if (result.databaseUrl === '') delete result.databaseUrl;
  if (result.redisUrl === '') delete result.redisUrl;
  result.dataDir = resolve(result.dataDir);
  if (result.port > 65535) throw new ConfigError(`--port must be at most 65535`);
  if (result.statusWaitMs > MAX_STATUS_WAIT_MS)
    throw new ConfigError(
      `--status-wait-ms must be at most ${MAX_STATUS_WAIT_MS}: a longer wait would outlast the 30 s after which idle connections are closed`,
    );
  result.role = result.role.trim().toLowerCase() as ServiceRole;
  if (!SERVICE_ROLES.includes(result.role)) throw new ConfigError(`--role (SOLPROOF_ROLE) must be all, api or worker, got "${result.role}"`);
  result.logLevel = result.logLevel.trim().toLowerCase();
  if (!LOG_LEVELS.includes(result.logLevel))
    throw new ConfigError(`--log-level (SOLPROOF_LOG_LEVEL) must be one of ${LOG_LEVELS.join(', ')}, got "${result.logLevel}"`);
  return result;
}

/** How long a claimed job is held between renewals: the configured lease, or 30 s. */
export function jobLeaseMs(config: Pick<Config, 'jobLeaseMs'>): number {
  return config.jobLeaseMs > 0 ? config.jobLeaseMs : DEFAULT_JOB_LEASE_MS;
}

/** A key's share of the job slots: the configured number, or all job slots but one. */
export function runningJobsPerKey(config: Pick<Config, 'keyRunningJobs' | 'jobConcurrency'>): number {
  return config.keyRunningJobs > 0 ? config.keyRunningJobs : Math.max(1, config.jobConcurrency - 1);
}
