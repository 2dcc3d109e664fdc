#!/usr/bin/env node
import { CONFIG_OPTIONS, loadConfig } from '../core/config.js';
import { isSolproofError } from '../core/errors.js';
import { errorSentence } from '../texts/index.js';
import { readCommandLine } from './args.js';
import { keys } from './keys.js';
import { start } from './start.js';
import { storeCommand } from './store.js';

const USAGE = `usage: solproof <command> [options]

commands:
  start                         run the API and the verification workers
  keys create [--owner NAME] [--tier free|pro]
  keys list
  keys revoke KEY_ID
  store stats                   verified contracts, distinct compilations and sources, bytes on disk

options (each also an environment variable):
${CONFIG_OPTIONS.map((o) => `  --${o.flag.padEnd(22)} ${o.env.padEnd(30)} ${o.help}`).join('\n')}
`;

async function main(argv: string[]): Promise<number> {
  const line = readCommandLine(argv);
  const [command, ...rest] = line.positional;
  if (!command || command === 'help' || line.help) {
    process.stdout.write(USAGE);
    return command ? 0 : 2;
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
