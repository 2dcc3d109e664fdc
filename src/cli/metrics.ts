/**
 * The service's Prometheus metrics: one registry per process, Node's default metrics, and what
 * the ServiceMetrics port reports. Gauges of shared state (the queue, the follower) are read
 * from the store and the node when scraped, each read bounded in time.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceMetrics } from '../core/metrics.js';

/** Reads of shared state made at each scrape; null when this process has none to give. */
export interface ScrapeSources {
  /** Jobs by state. */
  jobCounts(): Promise<Record<string, number>>;
  /** When the oldest waiting job was submitted (epoch ms), or null. */
  oldestQueuedAt(): Promise<number | null>;
  /** The follower's lag in blocks and whether this process leads; undefined where no follower runs. */
  follower?: () => Promise<{ lagBlocks: number | null; leading: boolean }>;
  /** Compiler statistics of this process (compiles, loads, downloads); undefined where nothing compiles. */
  compilerStats?: () => { compiles: number; warmUps: number; downloads: { mirror: number; npm: number } };
}

export interface PrometheusMetrics {
  port: ServiceMetrics;
  /** The text exposition and its content type. */
  render(): Promise<{ contentType: string; body: string }>;
}

const SCRAPE_READ_MS = 2000;

function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), SCRAPE_READ_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A registry for this process, labelled with its role. */
export function createPrometheusMetrics(options: { role: string; sources: ScrapeSources }): PrometheusMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ role: options.role });
  collectDefaultMetrics({ register: registry, prefix: 'solproof_' });
  const sources = options.sources;

  const requests = new Counter({
    name: 'solproof_http_requests_total',
    help: 'HTTP requests answered, by API action (or route) and HTTP status',
    labelNames: ['action', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'solproof_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by API action (or route) and HTTP status',
    labelNames: ['action', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'solproof_refusals_total',
    help: 'Requests refused by a limit: rate_limit, invalid_key_cooldown, quota, queued_jobs',
    labelNames: ['reason'],
    registers: [registry],
  });
  const jobs = new Histogram({
    name: 'solproof_job_duration_seconds',
    help: 'Verification jobs run by this process, by kind and outcome (pass, fail, already_verified, retry, released)',
    labelNames: ['kind', 'outcome'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
    registers: [registry],
  });
  const compiles = new Histogram({
    name: 'solproof_compile_duration_seconds',
    help: 'Compiles run by this process, by compiler version and outcome (ok, error)',
    labelNames: ['version', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    registers: [registry],
  });
  const similar = new Counter({ name: 'solproof_similar_matches_total', help: 'Deployments verified through a stored compilation', registers: [registry] });
  const diagnoses = new Counter({
    name: 'solproof_diagnoses_total',
    help: 'Diagnoses of failed verifications, by outcome (fix, none, skipped, error)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const answers = new Counter({
    name: 'solproof_read_answers_total',
    help: "Verified contracts' read answers (getabi, getsourcecode), by where they came from (memory, store)",
    labelNames: ['source'],
    registers: [registry],
  });

  new Gauge({
    name: 'solproof_queue_jobs',
    help: 'Jobs in the shared queue, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const counts = await bounded(sources.jobCounts()).catch(() => null);
      if (!counts) return;
      for (const [state, n] of Object.entries(counts)) this.set({ state }, n);
    },
  });
  new Gauge({
    name: 'solproof_queue_oldest_job_age_seconds',
    help: 'Age of the oldest job waiting in the shared queue (0 when none waits)',
    registers: [registry],
    async collect() {
      const oldest = await bounded(sources.oldestQueuedAt()).catch(() => undefined);
      if (oldest === undefined) return;
      this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000));
    },
  });
  if (sources.follower) {
    const follower = sources.follower;
    const lag = new Gauge({
      name: 'solproof_follower_lag_blocks',
      help: "Blocks between the node's head and the chain follower's position",
      registers: [registry],
    });
    new Gauge({
      name: 'solproof_follower_leading',
      help: 'Whether this process runs the chain follower now (one process per store does)',
      registers: [registry],
      async collect() {
        const state = await bounded(follower()).catch(() => null);
        if (!state) return;
        this.set(state.leading ? 1 : 0);
        if (state.lagBlocks !== null) lag.set(state.lagBlocks);
      },
    });
  }
  if (sources.compilerStats) {
    const stats = sources.compilerStats;
    // The compiler keeps its own running totals: each scrape copies them.
    new Counter({
      name: 'solproof_compiler_downloads_total',
      help: 'Compilers downloaded into the compiler cache, by source (mirror, npm)',
      labelNames: ['source'],
      registers: [registry],
      collect() {
        const now = stats();
        this.reset();
        for (const source of ['mirror', 'npm'] as const) this.inc({ source }, now.downloads[source]);
      },
    });
    new Counter({
      name: 'solproof_compiler_warm_ups_total',
      help: 'Small compiles run while idle after a compiler was loaded, so that its code is optimised before verifications need it',
      registers: [registry],
      collect() {
        const now = stats();
        this.reset();
        this.inc(now.warmUps);
      },
    });
    new Counter({
      name: 'solproof_compiler_cache_hits_total',
      help: 'Compiles whose compiler was already in the compiler cache (compiles less downloads)',
      registers: [registry],
      collect() {
        const now = stats();
        const hits = Math.max(0, now.compiles - now.downloads.mirror - now.downloads.npm);
        this.reset();
        this.inc(hits);
      },
    });
  }

  const port: ServiceMetrics = {
    request(action, status, seconds) {
      const labels = { action, status: String(status) };
      requests.inc(labels);
      latency.observe(labels, seconds);
    },
    refused(reason) {
      refusals.inc({ reason });
    },
    jobDone(kind, outcome, seconds) {
      jobs.observe({ kind, outcome }, seconds);
    },
    compiled(version, outcome, seconds) {
      compiles.observe({ version, outcome }, seconds);
    },
    similarMatch() {
      similar.inc();
    },
    diagnosis(outcome) {
      diagnoses.inc({ outcome });
    },
    answerRead(source) {
      answers.inc({ source });
    },
  };
  return {
    port,
    render: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
  };
}
