/**
 * What `solproof publish` reads in a project: its build-info files and, when given, the record
 * of a deployment (Foundry's broadcast `run-*.json`, or a Hardhat Ignition deployment folder).
 * Everything here reads local files the user named; nothing is sent anywhere.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { isRecord } from '../core/json.js';

/** A problem with the user's files, worded for them; nothing was sent when one is thrown. */
export class PublishInputError extends Error {}

export interface DeployedContract {
  address: string;
  /** The name the record gives it (a factory's child has none in Foundry's record). */
  name: string | null;
}

export interface DeploymentRecord {
  kind: 'foundry' | 'ignition';
  /** The file or folder read, as the user would name it. */
  where: string;
  chainId: number;
  contracts: DeployedContract[];
  /** Build-info files the record comes with (an Ignition deployment keeps its own). */
  buildInfoDir: string | null;
}

const readJson = (path: string, what: string): unknown => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new PublishInputError(`${what} ${path} is not readable JSON: ${(error as Error).message}`);
  }
};

const isAddress = (v: unknown): v is string => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v);

/**
 * Reads a deployment record: Foundry's `broadcast/<Script>/<chainId>/run-latest.json` (or any
 * `run-*.json`, or the folder holding run-latest.json), or an Ignition deployment folder
 * (`ignition/deployments/chain-31337`: deployed_addresses.json and journal.jsonl).
 */
export function readDeploymentRecord(path: string, cwd: string): DeploymentRecord {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new PublishInputError(`the deployment record ${path} does not exist`);
  const shown = relative(cwd, full) || '.';
  if (statSync(full).isDirectory()) {
    if (existsSync(join(full, 'deployed_addresses.json'))) return readIgnition(full, shown);
    if (existsSync(join(full, 'run-latest.json'))) return readFoundry(join(full, 'run-latest.json'), join(shown, 'run-latest.json'));
    throw new PublishInputError(
      `${shown} is neither an Ignition deployment folder (no deployed_addresses.json) nor a Foundry broadcast folder (no run-latest.json)`,
    );
  }
  return readFoundry(full, shown);
}

function readFoundry(file: string, shown: string): DeploymentRecord {
  const record = readJson(file, 'the deployment record');
  if (!isRecord(record) || !Array.isArray(record.transactions)) {
    throw new PublishInputError(`${shown} is not a Foundry broadcast record (no "transactions")`);
  }
  const chainId = Number(record.chain);
  if (!Number.isSafeInteger(chainId) || chainId <= 0) throw new PublishInputError(`${shown} names no chain ("chain" is missing)`);
  const contracts = new Map<string, DeployedContract>();
  for (const tx of record.transactions) {
    if (!isRecord(tx)) continue;
    const type = typeof tx.transactionType === 'string' ? tx.transactionType : '';
    if (type.startsWith('CREATE') && isAddress(tx.contractAddress)) {
      contracts.set(tx.contractAddress.toLowerCase(), {
        address: tx.contractAddress.toLowerCase(),
        name: typeof tx.contractName === 'string' ? tx.contractName : null,
      });
    }
    // Contracts created inside a call (a factory's children) are recorded beside the call.
    for (const extra of Array.isArray(tx.additionalContracts) ? tx.additionalContracts : []) {
      if (isRecord(extra) && isAddress(extra.address) && !contracts.has(extra.address.toLowerCase())) {
        contracts.set(extra.address.toLowerCase(), { address: extra.address.toLowerCase(), name: null });
      }
    }
  }
  if (contracts.size === 0) throw new PublishInputError(`${shown} records no deployed contract`);
  return { kind: 'foundry', where: shown, chainId, contracts: [...contracts.values()], buildInfoDir: null };
}

function readIgnition(dir: string, shown: string): DeploymentRecord {
  const addresses = readJson(join(dir, 'deployed_addresses.json'), 'the Ignition record');
  if (!isRecord(addresses)) throw new PublishInputError(`${join(shown, 'deployed_addresses.json')} is not an object of addresses`);
  const contracts: DeployedContract[] = [];
  for (const [futureId, address] of Object.entries(addresses)) {
    if (!isAddress(address)) continue;
    // `Module#Contract` (or `Module#id`): the part after `#` is how the deployment names it.
    contracts.push({ address: address.toLowerCase(), name: futureId.split('#').pop() ?? futureId });
  }
  if (contracts.length === 0) throw new PublishInputError(`${shown} records no deployed contract`);
  return { kind: 'ignition', where: shown, chainId: ignitionChainId(dir, shown), contracts, buildInfoDir: join(dir, 'build-info') };
}

/** The chain of an Ignition deployment: its journal's first entry says it; else the folder's name (`chain-31337`). */
function ignitionChainId(dir: string, shown: string): number {
  const journal = join(dir, 'journal.jsonl');
  if (existsSync(journal)) {
    for (const line of readFileSync(journal, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        const entry = JSON.parse(line) as { type?: unknown; chainId?: unknown };
        if (entry.type === 'DEPLOYMENT_INITIALIZE' && typeof entry.chainId === 'number') return entry.chainId;
      } catch {
        break;
      }
    }
  }
  const named = /^chain-(\d+)$/.exec(basename(dir))?.[1];
  if (named) return Number(named);
  throw new PublishInputError(`${shown}: no chain id in journal.jsonl or in the folder's name`);
}

/** A build-info file, as sent: the compiler input and its long version (the output stays here). */
export interface BuildInfo {
  file: string;
  /** The JSON sent to `verifybuild`. */
  text: string;
}

/**
 * The project's build-info files: Foundry's `out/build-info` (forge writes full ones only with
 * `--build-info`), Hardhat's `artifacts/build-info` (Hardhat 3's `*.output.json` left out), or
 * the given folder. Each is sent without its `output`, which the service never reads.
 */
export function readBuildInfos(project: string, dir: string | null): { dir: string; builds: BuildInfo[] } {
  const candidates = dir ? [dir] : [join(project, foundryOut(project), 'build-info'), join(project, 'artifacts', 'build-info')];
  const found = candidates.find((d) => existsSync(d) && statSync(d).isDirectory());
  const shown = (d: string) => relative(project, d) || d;
  if (!found) {
    throw new PublishInputError(
      `no build-info folder (looked in ${candidates.map(shown).join(' and ')}): build with \`forge build --build-info\` or \`npx hardhat compile\` first`,
    );
  }
  const builds: BuildInfo[] = [];
  const partial: string[] = [];
  for (const name of readdirSync(found).sort()) {
    if (!name.endsWith('.json') || name.endsWith('.output.json')) continue;
    const file = join(found, name);
    const parsed = readJson(file, 'the build-info file');
    if (!isRecord(parsed) || !isRecord(parsed.input)) {
      partial.push(name);
      continue;
    }
    const { output: _output, ...sent } = parsed;
    builds.push({ file: shown(file), text: JSON.stringify(sent) });
  }
  if (builds.length === 0) {
    const why = partial.length
      ? `its ${partial.length} file(s) hold no compiler input (forge writes full build-info files only with \`forge build --build-info\`, or \`build_info = true\` in foundry.toml)`
      : 'it holds no build-info file';
    throw new PublishInputError(`${shown(found)}: ${why}`);
  }
  return { dir: shown(found), builds };
}

/** foundry.toml's `out` of the default profile (default `out`). */
function foundryOut(project: string): string {
  const toml = join(project, 'foundry.toml');
  if (!existsSync(toml)) return 'out';
  const text = readFileSync(toml, 'utf8');
  const profile = /\[profile\.default\]([\s\S]*?)(\n\[|$)/.exec(text)?.[1] ?? '';
  return /^\s*out\s*=\s*["']([^"']+)["']/m.exec(profile)?.[1] ?? 'out';
}
