import { withV } from '../../core/compilerVersion.js';
import type { SettingChange, SubmittedSettings } from '../../core/diagnosis.js';
import type { SourceSubmission, StandardJsonSubmission } from '../../core/types.js';
import { buildSolcInput } from '../buildSolcInput.js';
import type { SolcSettings } from '../solcTypes.js';

/** Reads the settings a submission is compiled with. */
export function submittedSettings(submission: SourceSubmission): SubmittedSettings {
  if (submission.codeFormat === 'solidity-single-file') {
    return {
      compilerVersion: submission.compilerVersion,
      optimizer: submission.optimizationUsed,
      runs: submission.runs,
      evmVersion: submission.evmVersion,
      viaIR: submission.viaIR,
      bytecodeHash: 'ipfs',
      appendCBOR: true,
      contractName: submission.contractName,
    };
  }
  const settings = submission.standardJson.settings as SolcSettings & Record<string, unknown>;
  const optimizer = (settings.optimizer ?? {}) as { enabled?: boolean; runs?: number };
  const metadata = (settings.metadata ?? {}) as { bytecodeHash?: string; appendCBOR?: boolean };
  return {
    compilerVersion: submission.compilerVersion,
    optimizer: optimizer.enabled === true,
    runs: typeof optimizer.runs === 'number' ? optimizer.runs : 200,
    evmVersion: typeof settings.evmVersion === 'string' ? settings.evmVersion : '',
    viaIR: settings.viaIR === true,
    bytecodeHash: typeof metadata.bytecodeHash === 'string' ? metadata.bytecodeHash : 'ipfs',
    appendCBOR: metadata.appendCBOR !== false,
    contractName: submission.contractName,
  };
}

/**
 * The submission with `changes` applied. A single file cannot carry metadata settings: with a
 * bytecodeHash change it becomes the standard JSON input it compiles to, with that setting.
 */
export function withChanges(submission: SourceSubmission, changes: readonly SettingChange[]): SourceSubmission {
  let out: SourceSubmission = submission;
  for (const change of changes) out = withChange(out, change);
  return out;
}

function withChange(submission: SourceSubmission, change: SettingChange): SourceSubmission {
  const { setting, to } = change;
  if (setting === 'compilerVersion') return { ...submission, compilerVersion: withV(to) };
  if (setting === 'contractName') return { ...submission, contractName: to };
  if (setting === 'constructorArguments') return { ...submission, constructorArguments: to };
  if (setting === 'library') return withLibrary(submission, change.name ?? '', to);
  if (submission.codeFormat === 'solidity-single-file') {
    switch (setting) {
      case 'optimizer':
        return { ...submission, optimizationUsed: to === 'enabled' };
      case 'runs':
        return { ...submission, optimizationUsed: true, runs: Number(to) };
      case 'evmVersion':
        return { ...submission, evmVersion: to };
      case 'viaIR':
        return { ...submission, viaIR: to === 'true' };
      case 'bytecodeHash':
      case 'appendCBOR':
        return withChange(asStandardJson(submission), change);
    }
  }
  const json = submission as StandardJsonSubmission;
  const settings = { ...(json.standardJson.settings as Record<string, unknown>) };
  const optimizer = { ...((settings['optimizer'] ?? {}) as Record<string, unknown>) };
  switch (setting) {
    case 'optimizer':
      optimizer['enabled'] = to === 'enabled';
      settings['optimizer'] = optimizer;
      break;
    case 'runs':
      optimizer['enabled'] = true;
      optimizer['runs'] = Number(to);
      settings['optimizer'] = optimizer;
      break;
    case 'evmVersion':
      if (to === '') delete settings['evmVersion'];
      else settings['evmVersion'] = to;
      break;
    case 'viaIR':
      if (to === 'true') settings['viaIR'] = true;
      else delete settings['viaIR'];
      break;
    case 'bytecodeHash':
    case 'appendCBOR':
      settings['metadata'] = withMetadataChanges(settings, [change])['metadata'];
      break;
  }
  return { ...json, standardJson: { ...json.standardJson, settings: settings as SolcSettings } };
}

/** `settings` with the metadata changes among `changes` (bytecodeHash, appendCBOR) applied. */
export function withMetadataChanges(settings: SolcSettings, changes: readonly SettingChange[]): SolcSettings {
  let metadata: Record<string, unknown> | null = null;
  for (const { setting, to } of changes) {
    if (setting !== 'bytecodeHash' && setting !== 'appendCBOR') continue;
    metadata ??= { ...((settings.metadata ?? {}) as Record<string, unknown>) };
    metadata[setting] = setting === 'appendCBOR' ? to === 'true' : to;
  }
  return metadata ? { ...settings, metadata: metadata as NonNullable<SolcSettings['metadata']> } : settings;
}

/** The standard JSON input a single file compiles to, as a submission (the contract named `path:Name`). */
function asStandardJson(submission: SourceSubmission): StandardJsonSubmission {
  if (submission.codeFormat === 'solidity-standard-json-input') return submission;
  const built = buildSolcInput(submission);
  const { outputSelection: _selection, ...settings } = built.input.settings as SolcSettings & { outputSelection?: unknown };
  return {
    address: submission.address,
    contractName: `${built.sourcePath}:${built.contractName}`,
    compilerVersion: submission.compilerVersion,
    optimizationUsed: submission.optimizationUsed,
    runs: submission.runs,
    constructorArguments: submission.constructorArguments,
    evmVersion: submission.evmVersion,
    licenseType: submission.licenseType,
    libraries: submission.libraries,
    viaIR: submission.viaIR,
    codeFormat: 'solidity-standard-json-input',
    standardJson: { language: 'Solidity', sources: built.input.sources, settings: settings as SolcSettings },
  };
}

/** Every place the submission names library `name` (`Name` or `path:Name`) now says `address`. */
function withLibrary(submission: SourceSubmission, name: string, address: string): SourceSubmission {
  const bare = name.slice(name.lastIndexOf(':') + 1);
  const sameName = (n: string): boolean => n.slice(n.lastIndexOf(':') + 1) === bare;
  const libraries = submission.libraries.map((l) => (sameName(l.name) ? { ...l, address: address as typeof l.address } : l));
  if (submission.codeFormat === 'solidity-single-file') return { ...submission, libraries };
  const settings = { ...(submission.standardJson.settings as Record<string, unknown>) };
  const given = settings['libraries'] as Record<string, Record<string, string>> | undefined;
  if (given) {
    settings['libraries'] = Object.fromEntries(
      Object.entries(given).map(([path, byName]) => [path, Object.fromEntries(Object.entries(byName).map(([n, a]) => [n, n === bare ? address : a]))]),
    );
  }
  return { ...submission, libraries, standardJson: { ...submission.standardJson, settings: settings as SolcSettings } };
}
