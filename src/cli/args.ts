import { parseArgs } from 'node:util';
import { CONFIG_OPTIONS, ConfigError } from '../core/config.js';

/** A command line, read: the words, the configuration flags, and the few flags of subcommands. */
export interface CommandLine {
  positional: string[];
  /** Configuration options by flag name (`rpc-url`), as given. */
  config: Record<string, string>;
  /** `keys create` options. */
  owner?: string | undefined;
  tier?: string | undefined;
  /** `publish` options. */
  publish: { url?: string; key?: string; deployment?: string; project?: string };
  help: boolean;
  version: boolean;
}

const OPTIONS = {
  ...Object.fromEntries(CONFIG_OPTIONS.map((o) => [o.flag, { type: 'string' as const }])),
  owner: { type: 'string' as const },
  tier: { type: 'string' as const },
  url: { type: 'string' as const },
  key: { type: 'string' as const },
  deployment: { type: 'string' as const },
  project: { type: 'string' as const },
  help: { type: 'boolean' as const, short: 'h' },
  version: { type: 'boolean' as const, short: 'V' },
};

/**
 * Reads `solproof <command> [words] [--name value | --name=value]` with Node's own parser.
 * Throws ConfigError naming an unknown option or one given without its value.
 */
export function readCommandLine(argv: readonly string[]): CommandLine {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const name = /'(-{1,2}[^']+)'/.exec((error as Error).message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new ConfigError(`unknown option ${name}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') throw new ConfigError(`option ${name.split(' ')[0]} needs a value`);
    throw new ConfigError((error as Error).message);
  }
  const { owner, tier, help, version, url, key, deployment, project, ...rest } = parsed.values as Record<string, string | boolean | undefined>;
  const publish: CommandLine['publish'] = {};
  for (const [name, value] of Object.entries({ url, key, deployment, project }))
    if (typeof value === 'string') publish[name as keyof CommandLine['publish']] = value;
  const config: Record<string, string> = {};
  for (const [name, value] of Object.entries(rest)) if (typeof value === 'string') config[name] = value;
  return {
    positional: parsed.positionals,
    config,
    owner: typeof owner === 'string' ? owner : undefined,
    tier: typeof tier === 'string' ? tier : undefined,
    publish,
    help: help === true,
    version: version === true,
  };
}
