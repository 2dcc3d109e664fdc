/**
 * Storage layouts for the contracts verified before the service kept them: each stored
 * compilation that lacks one is compiled again from its stored sources and settings, and a
 * contract takes the layout only when that compile gives exactly the runtime code stored for it
 * (a compile that differs proves nothing about the record). Compilations whose compiler gives
 * no layout (Vyper, solc before 0.5.13) are passed over, and say why.
 */
import { type LayoutKind, missingLayout } from '../core/storageLayout.js';
import { codeKey, compilationSources } from '../store/compilations.js';
import { compilationsMissingLayouts, setCompiledContractLayouts } from '../store/layoutBackfill.js';
import type { Store } from '../store/openStore.js';
import type { Compiler, SolcInput } from '../verify/index.js';

export interface LayoutBackfillDeps {
  store: Store;
  compiler: Compiler;
}

export interface LayoutBackfillTally {
  compilations: number;
  /** Contracts that gained their layouts. */
  filled: number;
  /** Contracts whose compiler gives no layout, by why. */
  noLayout: Partial<Record<'vyper' | 'not_solidity' | 'compiler_too_old', number>>;
  /** Contracts a new compile did not reproduce (other code, or absent from the output). */
  notReproduced: number;
  /** Compilations that failed to compile (errors, or the compiler could not be had). */
  failed: { compilationId: string; error: string }[];
}

/** Compilations read from the store at a time. */
const PAGE = 20;

/** Fills in what it can; `progress` is told after each compilation. Never changes a layout already kept. */
export async function backfillLayouts(deps: LayoutBackfillDeps, progress?: (tally: LayoutBackfillTally) => void): Promise<LayoutBackfillTally> {
  const { db } = deps.store;
  const tally: LayoutBackfillTally = { compilations: 0, filled: 0, noLayout: {}, notReproduced: 0, failed: [] };
  let after: string | null = null;
  for (;;) {
    const page = await compilationsMissingLayouts(db, after, PAGE);
    if (page.length === 0) return tally;
    for (const compilation of page) {
      after = compilation.id;
      tally.compilations++;
      const why = missingLayout('storageLayout' satisfies LayoutKind, compilation.language, compilation.compilerVersion);
      if (why.reason !== 'not_kept') {
        tally.noLayout[why.reason] = (tally.noLayout[why.reason] ?? 0) + compilation.contracts.length;
        progress?.(tally);
        continue;
      }
      // solc 0.5.13 to 0.8.3 generate code for a contract another creates only when every contract is selected.
      const selection: Record<string, Record<string, string[]>> = { '*': { '*': ['evm.bytecode.object'] } };
      for (const c of compilation.contracts) (selection[c.path] ??= {})[c.name] = ['evm.deployedBytecode.object', 'storageLayout', 'transientStorageLayout'];
      const sources = await compilationSources(db, compilation.id);
      const input: SolcInput = {
        language: 'Solidity',
        sources: Object.fromEntries(sources.map((s) => [s.path, { content: s.content }])),
        settings: { ...compilation.settings, outputSelection: selection },
      };
      try {
        const output = await deps.compiler.compile(compilation.compilerVersion, input);
        const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
        if (errors.length > 0) throw new Error(errors[0]?.formattedMessage ?? errors[0]?.message ?? 'compilation error');
        for (const c of compilation.contracts) {
          const out = output.contracts?.[c.path]?.[c.name];
          const runtime = out?.evm?.deployedBytecode?.object ?? '';
          if (!out?.storageLayout || c.runtimeCodeHash === null || runtime === '' || codeKey(runtime) !== c.runtimeCodeHash) {
            tally.notReproduced++;
            continue;
          }
          await setCompiledContractLayouts(
            db,
            c.id,
            JSON.stringify(out.storageLayout),
            out.transientStorageLayout ? JSON.stringify(out.transientStorageLayout) : null,
          );
          tally.filled++;
        }
      } catch (error) {
        tally.failed.push({ compilationId: compilation.id, error: (error instanceof Error ? error.message : String(error)).slice(0, 300) });
      }
      progress?.(tally);
    }
  }
}
