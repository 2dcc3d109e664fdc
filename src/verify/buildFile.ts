import { withoutV } from '../core/compilerVersion.js';
import { SolproofError } from '../core/errors.js';
import { isRecord } from '../core/json.js';
import type { SolcInput } from '../core/solcInput.js';
import { checkStandardJsonInput, unwrapStandardJson } from './standardJsonText.js';

/** What a whole build was submitted as. */
export type BuildFormat = 'standard-json' | 'hardhat-build-info' | 'foundry-build-info';

export interface BuildFile {
  format: BuildFormat;
  /** The standard JSON input, checked as for a submission. */
  input: SolcInput;
  /** The compiler the file names (build-info files do), long form without `v`; null when it names none. */
  compilerVersion: string | null;
}

/**
 * Reads a build: a standard JSON input (as `forge verify-contract --show-standard-json-input`
 * prints it), or a build-info file of Hardhat (v2 `hh-sol-build-info-1`, v3
 * `hh3-sol-build-info-1`) or Foundry (`ethers-rs-sol-build-info-1`), whose `input` is the
 * standard JSON input and whose `solcLongVersion` names the compiler. An `output` in the file
 * is never used: the service compiles the input itself. Throws SolproofError
 * `invalid_standard_json`.
 */
export function readBuildFile(text: string): BuildFile {
  let parsed: unknown;
  try {
    parsed = JSON.parse(unwrapStandardJson(text));
  } catch (e) {
    throw new SolproofError('invalid_standard_json', { problem: 'not_json', document: 'build', parserMessage: (e as Error).message });
  }
  if (!isRecord(parsed)) throw new SolproofError('invalid_standard_json', { problem: 'not_an_object', document: 'build' });
  if (!isRecord(parsed['input'])) {
    return { format: 'standard-json', input: checkStandardJsonInput(parsed), compilerVersion: null };
  }
  const marker = typeof parsed['_format'] === 'string' ? parsed['_format'] : '';
  const format: BuildFormat = marker.startsWith('ethers-rs') ? 'foundry-build-info' : 'hardhat-build-info';
  const long = parsed['solcLongVersion'];
  if (long !== undefined && (typeof long !== 'string' || !/^\d+\.\d+\.\d+/.test(long))) {
    throw new SolproofError('invalid_standard_json', { problem: 'malformed_solc_long_version' });
  }
  return { format, input: checkStandardJsonInput(parsed['input']), compilerVersion: typeof long === 'string' ? withoutV(long) : null };
}
