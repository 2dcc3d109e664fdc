import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultConfig, loadConfig, runningJobsPerKey } from './config.js';

describe('loadConfig', () => {
  it('starts from the defaults', () => {
    const config = loadConfig({}, {});
    expect(config).toEqual({ ...defaultConfig(), dataDir: resolve('.data') });
    expect(config.rpcUrl).toBeUndefined();
  });

  it('takes environment variables, and flags over them', () => {
    const config = loadConfig({ port: '9000', 'trusted-proxies': '10.0.0.1, 10.0.0.2' }, { PORT: '8000', SOLPROOF_RATE_FREE: '7', DATABASE_URL: '' });
    expect(config.port).toBe(9000);
    expect(config.rateFree).toBe(7);
    expect(config.trustedProxies).toEqual(['10.0.0.1', '10.0.0.2']);
    // An empty URL means none.
    expect(config.databaseUrl).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(() => loadConfig({ bogus: 'x' }, {})).toThrow(new ConfigError('unknown option --bogus'));
    expect(() => loadConfig({ port: 'eighty' }, {})).toThrow('--port (PORT) must be a whole number, got "eighty"');
    expect(() => loadConfig({ port: '70000' }, {})).toThrow('--port must be at most 65535');
  });

  it('gives one key all job slots but one unless told otherwise', () => {
    expect(runningJobsPerKey({ keyRunningJobs: 0, jobConcurrency: 4 })).toBe(3);
    expect(runningJobsPerKey({ keyRunningJobs: 0, jobConcurrency: 1 })).toBe(1);
    expect(runningJobsPerKey({ keyRunningJobs: 2, jobConcurrency: 8 })).toBe(2);
  });
});
