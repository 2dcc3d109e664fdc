import { withoutV, withV } from '../../core/compilerVersion.js';
import type { CodeComparison, Diagnosis, SettingChange, SubmittedSettings } from '../../core/diagnosis.js';
import { type CodeDifferenceFacts, isSolproofError, SolproofError } from '../../core/errors.js';
import { compilerKnowsEvmVersion, EVM_VERSION_NAMES } from '../../core/evmVersions.js';
import { strip0x } from '../../core/hex.js';
import type { ReleaseLookup } from '../../core/solcReleases.js';
import type { SourceSubmission } from '../../core/types.js';
import { buildSolcInput } from '../buildSolcInput.js';
import { codeRelation } from '../codeRelation.js';
import { codeFingerprint } from '../fingerprint.js';
import type { Compiler, ContractCreation } from '../ports.js';
import type { SolcOutput } from '../solcTypes.js';
import { verifyContract } from '../verifyContract.js';
import { compareCodes } from './codeComparison.js';
import { deployedFacts } from './deployedFacts.js';
import { releaseOf, requiredMetadataChanges, revealedMetadataChanges } from './metadataChanges.js';
import { submittedSettings, withChanges } from './settingChanges.js';

export { requiredMetadataChanges } from './metadataChanges.js';

/** How much a diagnosis may spend. */
export interface DiagnosisBudget {
  /** Compiles at most (each candidate setting costs one, or none when its compilation is known). */
  compiles: number;
  /** Milliseconds at most, all compiles included: a compile still running then is stopped, not waited for. */
  ms: number;
}

export interface DiagnoseArgs {
  compiler: Compiler;
  submission: SourceSubmission;
  runtimeCode: string;
  creation: ContractCreation | null;
  /** Why the submission failed (verifyContract's error). */
  failure: SolproofError;
  /** The long version (`0.8.24+commit.e11b9ed9`) of a release, to try the compiler the metadata names. */
  releases: ReleaseLookup;
  /** Whether a compiler is here or quick to get; others are not tried. */
  compilerAvailable: (longVersion: string) => Promise<boolean>;
  budget: DiagnosisBudget;
  /**
   * Called before each compile: resolves when the diagnosis may go on (it yields to normal
   * work), or when `signal` fires (the diagnosis is at its time limit).
   */
  beforeCompile?: (signal: AbortSignal) => Promise<void>;
  /** For tests: the clock. */
  now?: () => number;
}

/** Runs per optimizer setting that are common in practice, most common first. */
const COMMON_RUNS = [200, 1, 1000, 10_000, 100, 999_999, 1_000_000, 500, 5000, 20_000, 2000, 50, 10, 300, 800, 4_294_967_295];

/**
 * Says why a submission failed and, where a bounded search finds one, the change that makes it
 * pass. Facts first (free): the deployed auxdata's compiler and hash kind, the failure's own
 * details. Then one setting at a time, the likeliest first (the contract name among the
 * submission's contracts of the same shape, the metadata's compiler version, the optimizer,
 * runs, viaIR, EVM versions, the metadata hash), then cheap pairs, each behind the metadata
 * settings the deployed auxdata requires (requiredMetadataChanges); each candidate is verified
 * for real, and the first that passes is the fix. A diagnosis never claims a fix that did not
 * pass. Without a fix, the code of the submission is compared byte by byte with the deployed code.
 */
export async function diagnoseFailure(args: DiagnoseArgs): Promise<Diagnosis> {
  const now = args.now ?? Date.now;
  const started = now();
  const sent = submittedSettings(args.submission);
  const facts: Diagnosis['facts'] = { ...deployedFacts(args.runtimeCode), sent, sameShape: [] };
  let compiles = 0;
  let compilesStopped = 0;
  let tried = 0;
  let limitReached: Diagnosis['limitReached'] = null;
  // The time limit stops the compile in flight: the verdict comes at the limit, not after the compile.
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), Math.max(0, args.budget.ms));
  timer.unref?.();
  const atDeadline = new Promise<false>((resolve) => deadline.signal.addEventListener('abort', () => resolve(false), { once: true }));
  const inBudget = (): boolean => {
    if (limitReached === null) {
      if (deadline.signal.aborted || now() - started >= args.budget.ms) limitReached = 'time';
      else if (compiles >= args.budget.compiles) limitReached = 'compiles';
    }
    return limitReached === null;
  };
  const counting: Compiler = {
    compile: async (version, input) => {
      await args.beforeCompile?.(deadline.signal);
      if (deadline.signal.aborted) throw new SolproofError('compile_cancelled', {});
      compiles++;
      try {
        return await args.compiler.compile(version, input, deadline.signal);
      } catch (error) {
        if (isSolproofError(error, 'compile_cancelled')) compilesStopped++;
        throw error;
      }
    },
  };
  const done = (fix: Diagnosis['fix'], comparison: CodeComparison | null): Diagnosis => {
    clearTimeout(timer);
    return {
      code: args.failure.code,
      facts,
      fix,
      comparison,
      tried,
      compiles,
      ms: now() - started,
      budgetSpent: limitReached !== null,
      limitReached,
      compilesStopped,
    };
  };

  /** Verifies the submission with `changes`; the verdict's kind when it passes. */
  const attempt = async (changes: SettingChange[]): Promise<string | null> => {
    if (!inBudget()) return null;
    tried++;
    try {
      const result = await verifyContract({
        compiler: counting,
        submission: withChanges(args.submission, changes),
        runtimeCode: args.runtimeCode as `0x${string}`,
        creation: args.creation,
      });
      return result.matchKind;
    } catch (error) {
      if (isSolproofError(error)) return null;
      throw error;
    }
  };
  const tryFix = async (changes: SettingChange[]): Promise<Diagnosis['fix']> => {
    const matchKind = await attempt(changes);
    return matchKind ? { changes, matchKind } : null;
  };

  // The failure's own facts: constructor arguments and libraries need no search.
  const details = (args.failure.details ?? {}) as Record<string, string>;
  if (args.failure.code === 'constructor_arguments_mismatch' && typeof details['onchain'] === 'string') {
    facts.onchainConstructorArguments = details['onchain'];
    const fix = await tryFix([{ setting: 'constructorArguments', from: strip0x(args.submission.constructorArguments), to: details['onchain'] }]);
    if (fix) return done(fix, null);
  }
  if (args.failure.code === 'library_mismatch' && details['library'] && details['onchain']) {
    facts.library = { name: details['library'], onchain: details['onchain'], submitted: details['submitted'] ?? '' };
    const fix = await tryFix([{ setting: 'library', name: details['library'], from: details['submitted'] ?? '', to: details['onchain'] }]);
    if (fix) return done(fix, null);
  }

  // One compile of every contract of the submission: which of them has the deployed code's
  // shape (a wrong contract name), and the code to compare with when nothing else is found.
  let output: SolcOutput | null = null;
  let targetCode: string | null = null;
  try {
    if (inBudget()) {
      const built = buildSolcInput(args.submission);
      const selection = { '*': { '*': ['abi', 'evm.deployedBytecode.object'] } };
      output = await counting.compile(versionOf(sent.compilerVersion), { ...built.input, settings: { ...built.input.settings, outputSelection: selection } });
      const deployedShape = codeFingerprint(strip0x(args.runtimeCode));
      for (const [path, byName] of Object.entries(output.contracts ?? {})) {
        for (const [name, contract] of Object.entries(byName)) {
          const code = contract.evm?.deployedBytecode?.object ?? '';
          if (path === built.sourcePath && name === built.contractName) targetCode = code;
          if (code && codeFingerprint(code) === deployedShape) facts.sameShape.push(`${path}:${name}`);
        }
      }
    }
  } catch (error) {
    if (!isSolproofError(error)) throw error;
  }

  // The named contract's functions are not in the deployed code, and no other contract's are:
  // another contract is deployed there (a wrong address), and no setting would change that.
  if (output && args.failure.code === 'no_match' && unrelatedEverywhere(output, args.runtimeCode, args.failure.details as CodeDifferenceFacts)) {
    const found = done(null, null);
    return { ...found, unrelated: true };
  }

  // The first full match ends the search; a partial one (other metadata: runs 1 and 200 often
  // give the same code) is kept while the search looks on for a full one.
  let partial: Diagnosis['fix'] = null;
  const candidates = candidateChanges(args, sent, facts);
  for (const changes of candidates) {
    if (!inBudget()) break;
    const compiler = changes.find((c) => c.setting === 'compilerVersion');
    if (compiler && !(await Promise.race([args.compilerAvailable(versionOf(compiler.to)), atDeadline]))) continue;
    const fix = await tryFix(changes);
    if (fix?.matchKind === 'full') return done(fix, null);
    partial ??= fix;
  }
  if (partial) return done(partial, null);
  return done(null, targetCode !== null ? compareCodes(targetCode, args.runtimeCode) : null);
}

/**
 * The settings to try, one change at a time first, the likeliest first; then cheap pairs.
 * Metadata changes the deployed CBOR requires come first, alone and then with every other candidate.
 */
function candidateChanges(args: DiagnoseArgs, sent: SubmittedSettings, facts: Diagnosis['facts']): SettingChange[][] {
  const required = requiredMetadataChanges(sent, facts);
  const others = otherCandidateChanges(args, sent, facts).filter((changes) => !changes.some((c) => required.some((r) => r.setting === c.setting)));
  return required.length === 0 ? others : [required, ...others.map((changes) => [...required, ...changes])];
}

function otherCandidateChanges(args: DiagnoseArgs, sent: SubmittedSettings, facts: Diagnosis['facts']): SettingChange[][] {
  const singles: SettingChange[][] = [];
  const submissionName = (qualified: string): string =>
    args.submission.codeFormat === 'solidity-single-file' ? qualified.slice(qualified.lastIndexOf(':') + 1) : qualified;
  for (const shape of facts.sameShape) {
    const name = submissionName(shape);
    if (name !== sent.contractName) singles.push([{ setting: 'contractName', from: sent.contractName, to: name }]);
  }
  // When another contract has the shape, the name is the likely fault: try it before settings.
  const release = releaseOf(sent.compilerVersion);
  let version: SettingChange | null = null;
  if (facts.compilerRelease && release && facts.compilerRelease !== release) {
    const long = args.releases(facts.compilerRelease)?.longVersion;
    if (long) version = { setting: 'compilerVersion', from: sent.compilerVersion, to: withV(long) };
  }
  if (version) singles.push([version]);
  const optimizer: SettingChange = { setting: 'optimizer', from: sent.optimizer ? 'enabled' : 'disabled', to: sent.optimizer ? 'disabled' : 'enabled' };
  singles.push([optimizer]);
  // With the optimizer off, another runs value means turning it on with those runs: the fault
  // is the optimizer (wrong_optimizer), the runs come with it.
  const runsChange = (runs: number): SettingChange[] => {
    const change: SettingChange = { setting: 'runs', from: String(sent.runs), to: String(runs) };
    return sent.optimizer ? [change] : [optimizer, change];
  };
  const runsToTry = COMMON_RUNS.filter((runs) => runs !== sent.runs); // enabling the optimizer tries the runs sent
  // The most common values now; the rarer ones after the other settings.
  for (const runs of runsToTry.slice(0, 3)) singles.push(runsChange(runs));
  const viaIR: SettingChange = { setting: 'viaIR', from: String(sent.viaIR), to: String(!sent.viaIR) };
  singles.push([viaIR]);
  const compilerRelease = release ?? '0.0.0';
  const evmVersions = EVM_VERSION_NAMES.filter((n) => compilerKnowsEvmVersion(compilerRelease, n) && n !== sent.evmVersion).reverse();
  for (const evm of evmVersions.slice(0, 6)) singles.push([{ setting: 'evmVersion', from: sent.evmVersion, to: evm }]);
  // The metadata settings the deployed auxdata shows, together (those it requires come first anyway).
  const revealed = revealedMetadataChanges(sent, facts);
  if (revealed.length > 0) singles.push(revealed);
  // The rarer runs values.
  for (const runs of runsToTry.slice(3)) singles.push(runsChange(runs));
  // Pairs where cheap: the metadata's compiler with the optimizer flipped; viaIR with the optimizer flipped.
  const pairs: SettingChange[][] = [];
  if (version) pairs.push([version, optimizer]);
  pairs.push([viaIR, optimizer]);
  return [...singles, ...pairs];
}

/** Whether the failure's contract and every other contract of the output hold none of their functions in the deployed code. */
function unrelatedEverywhere(output: SolcOutput, runtimeCode: string, details: CodeDifferenceFacts): boolean {
  if (!((details.functions ?? 0) > 0 && details.functionsInCode === 0)) return false;
  for (const byName of Object.values(output.contracts ?? {})) {
    for (const contract of Object.values(byName)) {
      if (codeRelation(contract.abi ?? [], runtimeCode).functionsInCode > 0) return false;
    }
  }
  return true;
}

function versionOf(compilerVersion: string): string {
  return withoutV(compilerVersion);
}
