import { describe, expect, it } from 'vitest';
import { ConfigError } from '../core/config.js';
import { readCommandLine } from './args.js';

describe('readCommandLine', () => {
  it('reads words, configuration flags in both forms, and the keys options', () => {
    expect(readCommandLine(['keys', 'create', '--owner', 'alice', '--tier=pro', '--data-dir', '/tmp/x'])).toEqual({
      positional: ['keys', 'create'],
      config: { 'data-dir': '/tmp/x' },
      owner: 'alice',
      tier: 'pro',
      publish: {},
      help: false,
      version: false,
    });
    // An empty value is a value (`--solc-mirror ''` turns the mirror off).
    expect(readCommandLine(['start', '--solc-mirror', '', '--port=0']).config).toEqual({ 'solc-mirror': '', port: '0' });
    expect(readCommandLine(['publish', '--url', 'http://127.0.0.1:8080', '--key=k', '--deployment', 'run-latest.json', '--project', 'p']).publish).toEqual({
      url: 'http://127.0.0.1:8080',
      key: 'k',
      deployment: 'run-latest.json',
      project: 'p',
    });
    expect(readCommandLine(['--help']).help).toBe(true);
    expect(readCommandLine(['--version']).version).toBe(true);
    expect(readCommandLine(['-V']).version).toBe(true);
  });

  it('names an unknown option, and an option without its value', () => {
    expect(() => readCommandLine(['start', '--bogus', 'x'])).toThrow(new ConfigError('unknown option --bogus'));
    expect(() => readCommandLine(['start', '--port'])).toThrow(ConfigError);
    expect(() => readCommandLine(['start', '--port'])).toThrow(/--port/);
  });
});
