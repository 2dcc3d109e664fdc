/**
 * Why a Vyper submission failed or matched only partially, and the change that makes it pass
 * where a bounded search finds one. The deployed code says what it can of itself (the Vyper
 * version in its auxdata; from 0.4.1 the integrity hash of its sources); then one setting at a
 * time, the likeliest first (the name among the submission's contracts, the version the
 * auxdata names, the optimisation mode, the EVM version), each verified for real.
 */

import type { VyperDeployedFacts, VyperDiagnosis, VyperSettingChange, VyperSubmittedSettings } from '../../core/diagnosis.js';
import { isSolproofError, SolproofError } from '../../core/errors.js';
import { strip0x } from '../../core/hex.js';
import type { Hex, VyperSubmission } from '../../core/types.js';
import { VYPER_RELEASES } from '../../core/vyperReleases.js';
import {
  compareVyperVersions,
  knownVyperRelease,
  parseVyperVersion,
  type VyperReleaseLookup,
  type VyperVersion,
  vyperOptimizeIsMode,
} from '../../core/vyperVersion.js';
import type { DiagnosisBudget } from '../diagnose/diagnoseFailure.js';
import type { ContractCreation, VyperCompiler } from '../ports.js';
import { vyperContractName } from './buildVyperInput.js';
import { type VyperVerificationResult, verifyVyperContract, vyperVersionOf } from './verifyVyperContract.js';
import { decodeVyperTail, vyperAuxdataOfInitCode } from './vyperAuxdata.js';

export interface DiagnoseVyperArgs {
  compiler: VyperCompiler;
  submission: VyperSubmission;
  runtimeCode: Hex;
  creation: ContractCreation | null;
  failure: SolproofError;
  releases?: VyperReleaseLookup;
  /** Whether a compiler is here or quick to get; others are not tried. */
  compilerAvailable: (longVersion: string) => Promise<boolean>;
  budget: DiagnosisBudget;
  /** For tests: the clock. */
  now?: () => number;
}

const OPTIMIZE_MODES = ['gas', 'codesize', 'none'] as const;
/** The EVM versions Vyper accepts, newest first (a release refuses those it does not know: that candidate fails). */
const EVM_VERSIONS = ['prague', 'cancun', 'shanghai', 'paris', 'london', 'berlin', 'istanbul'] as const;

/** What the deployed code says of its compiler: from its init code (0.3.10 on, past the constructor arguments) or its runtime code. */
export function vyperDeployedFacts(runtimeCode: string, creationCode: string | null): VyperDeployedFacts {
  const fromInit = creationCode ? vyperAuxdataOfInitCode(strip0x(creationCode).toLowerCase()) : null;
  if (fromInit) return { version: fromInit.auxdata.version, era: fromInit.era, integrity: fromInit.auxdata.integrity ?? null };
  const runtime = strip0x(runtimeCode).toLowerCase();
  for (const era of ['version_length', 'version'] as const) {
    const auxdata = decodeVyperTail(runtime, era);
    if (auxdata) return { version: auxdata.version, era, integrity: null };
  }
  return { version: null, era: null, integrity: null };
}

/** The settings a Vyper submission is compiled with. */
export function vyperSubmittedSettings(submission: VyperSubmission): VyperSubmittedSettings {
  if (submission.codeFormat === 'vyper-single-file') {
    return {
      compilerVersion: submission.compilerVersion,
      optimize: submission.optimizationUsed ? 'gas' : 'none',
      evmVersion: submission.evmVersion,
      contractName: submission.contractName,
    };
  }
  const s = submission.vyperJson.settings;
  return {
    compilerVersion: submission.compilerVersion,
    optimize: s.optimize === undefined ? '' : String(s.optimize),
    evmVersion: typeof s.evmVersion === 'string' ? s.evmVersion : '',
    contractName: submission.contractName,
  };
}

/** The submission with changes applied. */
export function withVyperChanges(submission: VyperSubmission, changes: readonly VyperSettingChange[]): VyperSubmission {
  let out = submission;
  for (const c of changes) {
    if (c.setting === 'compilerVersion') out = { ...out, compilerVersion: c.to };
    else if (c.setting === 'contractName') out = { ...out, contractName: c.to };
    else if (out.codeFormat === 'vyper-single-file') {
      out = c.setting === 'optimize' ? { ...out, optimizationUsed: c.to !== 'none' && c.to !== 'false' } : { ...out, evmVersion: c.to };
    } else {
      const settings = { ...out.vyperJson.settings };
      if (c.setting === 'optimize') settings.optimize = c.to === 'true' ? true : c.to === 'false' ? false : (c.to as 'gas' | 'codesize' | 'none');
      else settings.evmVersion = c.to;
      out = { ...out, vyperJson: { ...out.vyperJson, settings } };
    }
  }
  return out;
}

/**
 * Diagnoses a failed Vyper verification (no_match, runtime_mismatch,
 * contract_not_found_in_output): the deployed code's facts, then candidate changes within the
 * budget, each verified. A fix is only ever a change that passed.
 */
export async function diagnoseVyperFailure(args: DiagnoseVyperArgs): Promise<VyperDiagnosis> {
  const now = args.now ?? Date.now;
  const started = now();
  const releases = args.releases ?? knownVyperRelease;
  const sent = vyperSubmittedSettings(args.submission);
  const facts = { ...vyperDeployedFacts(args.runtimeCode, args.creation?.creationCode ?? null), sent, sameShape: [] as string[] };
  let compiles = 0;
  let tried = 0;
  let limitReached: VyperDiagnosis['limitReached'] = null;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), Math.max(0, args.budget.ms));
  timer.unref?.();
  const inBudget = (): boolean => {
    if (limitReached === null) {
      if (deadline.signal.aborted || now() - started >= args.budget.ms) limitReached = 'time';
      else if (compiles >= args.budget.compiles) limitReached = 'compiles';
    }
    return limitReached === null;
  };
  const counting: VyperCompiler = {
    compile: async (version, input) => {
      if (deadline.signal.aborted) throw new SolproofError('compile_cancelled', {});
      compiles++;
      return args.compiler.compile(version, input, deadline.signal);
    },
  };
  const attempt = async (changes: VyperSettingChange[]): Promise<VyperVerificationResult | null> => {
    if (!inBudget()) return null;
    tried++;
    try {
      return await verifyVyperContract({
        compiler: counting,
        submission: withVyperChanges(args.submission, changes),
        runtimeCode: args.runtimeCode,
        creation: args.creation,
        releases,
      });
    } catch (error) {
      // A candidate that cannot be compiled or does not match is no fix; anything else ends the search.
      if (isSolproofError(error) && !error.retryable) return null;
      throw error;
    }
  };
  const done = (fix: VyperDiagnosis['fix']): VyperDiagnosis => {
    clearTimeout(timer);
    return { language: 'Vyper', code: args.failure.code, facts, fix, tried, compiles, ms: now() - started, budgetSpent: limitReached !== null, limitReached };
  };

  let version: VyperVersion | null = null;
  try {
    version = vyperVersionOf(args.submission.compilerVersion, releases);
  } catch {
    version = null;
  }
  const candidates: VyperSettingChange[][] = [];
  // The name: the other contracts of the sources (a name that compiled to other code too).
  if (args.submission.codeFormat === 'vyper-json') {
    for (const path of Object.keys(args.submission.vyperJson.sources).filter((p) => p.endsWith('.vy'))) {
      const to = `${path}:${vyperContractName(path)}`;
      if (to !== sent.contractName) candidates.push([{ setting: 'contractName', from: sent.contractName, to }]);
    }
  }
  // The version the deployed auxdata names, when it is another: its releases here, the final one first.
  const versionChanges: VyperSettingChange[] = [];
  if (facts.version && version && facts.version !== `${version.major}.${version.minor}.${version.patch}`) {
    for (const release of await releasesNamed(facts.version, releases, args.compilerAvailable)) {
      versionChanges.push({ setting: 'compilerVersion', from: sent.compilerVersion, to: `vyper:${release}` });
    }
  }
  for (const change of versionChanges) candidates.push([change]);
  // The optimisation, as the release spells it.
  const optimizeValues = version && !vyperOptimizeIsMode(version) ? ['true', 'false'] : [...OPTIMIZE_MODES];
  for (const to of optimizeValues) {
    const from = sent.optimize === '' ? (version && !vyperOptimizeIsMode(version) ? 'true' : 'gas') : sent.optimize;
    if (to !== from && !(args.submission.codeFormat === 'vyper-single-file' && to === 'codesize'))
      candidates.push([{ setting: 'optimize', from: sent.optimize, to }]);
  }
  for (const to of EVM_VERSIONS) if (to !== sent.evmVersion) candidates.push([{ setting: 'evmVersion', from: sent.evmVersion, to }]);
  // The version with each optimisation.
  for (const change of versionChanges) {
    for (const to of OPTIMIZE_MODES) if (to !== 'gas') candidates.push([change, { setting: 'optimize', from: sent.optimize, to }]);
  }

  for (const changes of candidates) {
    if (!inBudget()) break;
    const result = await attempt(changes);
    if (result) return done({ changes, matchKind: result.matchKind });
  }
  return done(null);
}

/** The releases of these version numbers here (a final release before its prereleases, newest first). */
async function releasesNamed(numbers: string, releases: VyperReleaseLookup, available: (long: string) => Promise<boolean>): Promise<string[]> {
  const found: VyperVersion[] = [];
  for (const [release] of VYPER_RELEASES) {
    const v = parseVyperVersion(release);
    if (!v || `${v.major}.${v.minor}.${v.patch}` !== numbers) continue;
    const commit = releases(release);
    if (commit && (await available(`${release}+commit.${commit}`))) found.push(v);
  }
  return found.sort((a, b) => (a.prerelease === null ? -1 : b.prerelease === null ? 1 : compareVyperVersions(b, a))).map((v) => v.release);
}
