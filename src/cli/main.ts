#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { CONFIG_OPTIONS, loadConfig } from '../core/config.js';
import { isSolproofError } from '../core/errors.js';
import { errorSentence } from '../texts/index.js';
import { readCommandLine } from './args.js';
import { keys } from './keys.js';
import { publish } from './publish.js';
import { start } from './start.js';
import { storeCommand } from './store.js';

const USAGE = `usage: solproof <command> [options]

commands:
  start                         run the API, the explorer and the verification workers
                                (without --rpc-url: on a local anvil devnet it starts)
  keys create [--owner NAME] [--tier free|pro]
                                create an API key (printed once, stored hashed)
  keys list                     every key, its last use and today's counts
  keys revoke KEY_ID            revoke a key
  store stats                   verified contracts, distinct compilations and sources, bytes on disk
  store layouts                 compile again the compilations of contracts verified before storage
                                layouts were kept, and keep each layout the same code comes with
  publish --url URL --key KEY [--deployment RECORD] [--project DIR]
                                verify a deployment made without --verify: send the project's
                                build-info files (Foundry or Hardhat) through verifybuild and print
                                each contract's verdict; RECORD is Foundry's broadcast run-latest.json
                                or an Ignition deployment folder (its contracts only are reported)
  help                          this text

options of publish:
  --url URL                     the service (http://127.0.0.1:8080)
  --key KEY                     an API key of it (default: SOLPROOF_API_KEY)
  --deployment RECORD           broadcast/<Script>/<chain>/run-latest.json or ignition/deployments/<id>
  --project DIR                 the Foundry or Hardhat project (default: the current directory)

options of keys create:
  --owner NAME                  who the key is for
  --tier free|pro               its rate and quotas (default free)

general options:
  -h, --help                    this text
  -V, --version                 the version of solproof

options (each also an environment variable):
${CONFIG_OPTIONS.map((o) => `  --${o.flag.padEnd(22)} ${o.env.padEnd(30)} ${o.help}`).join('\n')}
`;

/** The version in package.json (dist/cli/main.js is two folders below it). */
function packageVersion(): string {
  const text = readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return String((JSON.parse(text) as { version?: unknown }).version ?? 'unknown');
}

async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv);
  const [command, ...rest] = line.positional;
  if (line.version) {
    process.stdout.write(`solproof ${packageVersion()}\n`);
    return 0;
  }
  if (!command || command === 'help' || line.help) {
    // Asked for (`--help`, `help`): success. Nothing asked: the usage, as an error.
    (command || line.help ? process.stdout : process.stderr).write(USAGE);
    return command || line.help ? 0 : 2;
  }
  const config = loadConfig(line.config);
  switch (command) {
    case 'start':
      await start(config);
      return -1; // keeps running
    case 'keys':
      return keys(config, rest, { owner: line.owner, tier: line.tier });
    case 'store':
      return storeCommand(config, rest);
    case 'publish':
      return publish(line.publish);
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    const message = isSolproofError(error) ? errorSentence(error) : error instanceof Error ? error.message : String(error);
    process.stderr.write(`solproof: ${message}\n`);
    process.exit(1);
  },
);
