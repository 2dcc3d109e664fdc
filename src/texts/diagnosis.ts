/**
 * The diagnosis of a failed verification in words: beside Etherscan's texts (etherscan.ts), the
 * one place that turns a diagnosis's facts (core/diagnosis.ts) into what clients and the
 * receipt page show.
 */
import type { Diagnosis, SettingChange, VyperDiagnosis, VyperSettingChange } from '../core/diagnosis.js';

/** Why a diagnosis stopped before trying every setting (`budget spent`, or its time limit with the compile it cut short); null when it did not. */
export function searchLimitText(d: Pick<Diagnosis, 'budgetSpent' | 'limitReached' | 'compilesStopped'>): string | null {
  if (!d.budgetSpent) return null;
  if (d.limitReached !== 'time') return 'budget spent';
  const stopped = d.compilesStopped ?? 0;
  return `stopped at its time limit${stopped > 0 ? `, ${stopped} compile${stopped === 1 ? '' : 's'} cut short` : ''}`;
}

const settingLabel = (setting: string, name?: string): string =>
  ({
    compilerVersion: 'compiler version',
    optimizer: 'optimizer',
    runs: 'optimizer runs',
    evmVersion: 'EVM version',
    viaIR: 'viaIR',
    bytecodeHash: 'settings.metadata.bytecodeHash',
    contractName: 'contract name',
    constructorArguments: 'constructor arguments',
    library: `library ${name ?? ''}`.trim(),
  })[setting] ?? setting;

const shown = (value: string): string => (value === '' ? 'the compiler default' : value);

/** One change, as the setting a user changes: `the optimizer enabled, 200 runs (you sent: disabled)`. */
export function changeText(c: SettingChange, sent: Diagnosis['facts']['sent']): string {
  switch (c.setting) {
    case 'optimizer':
      return c.to === 'enabled' ? `the optimizer enabled, ${sent.runs} runs (you sent: disabled)` : 'the optimizer disabled (you sent: enabled)';
    case 'runs':
      return `the optimizer enabled, ${c.to} runs (you sent: ${c.from})`;
    case 'evmVersion':
      return `EVM version ${c.to} (you sent: ${shown(c.from)})`;
    case 'viaIR':
      return `viaIR ${c.to === 'true' ? 'enabled' : 'disabled'} (you sent: ${c.from === 'true' ? 'enabled' : 'disabled'})`;
    case 'bytecodeHash':
      return `settings.metadata.bytecodeHash "${c.to}" in a standard JSON input (you sent: ${c.from})`;
    case 'appendCBOR':
      return `settings.metadata.appendCBOR ${c.to} in a standard JSON input (you sent: ${c.from})`;
    case 'compilerVersion':
      return `compiler ${c.to} (you sent: ${c.from})`;
    case 'contractName':
      return `contract name ${c.to} (you sent: ${c.from})`;
    case 'constructorArguments':
      return 'the constructor arguments of the creation transaction';
    case 'library':
      return `${settingLabel('library', c.name)} at ${c.to} (you sent: ${c.from || 'none'})`;
    default:
      return `${settingLabel(c.setting)} ${c.to} (you sent: ${shown(c.from)})`;
  }
}

/** Metadata settings read from a deployed code and compiled: `settings.metadata.bytecodeHash "none" (you sent: ipfs)`. */
export function metadataSettingsText(changes: readonly SettingChange[]): string {
  return changes
    .map((c) =>
      c.setting === 'appendCBOR'
        ? `settings.metadata.appendCBOR ${c.to} (you sent: ${c.from})`
        : `settings.metadata.bytecodeHash "${c.to}" (you sent: ${c.from})`,
    )
    .join(', ');
}

/** The diagnosis as sentences for a failure text: facts first, then the fix or where the codes differ. */
export function diagnosisSentences(d: Diagnosis): string {
  // The failure's reason already says the address holds another contract.
  if (d.unrelated) return 'None of the contracts of these sources is the code deployed there: no setting was searched.';
  const out: string[] = [];
  const { facts } = d;
  const sentRelease = /^v?(\d+\.\d+\.\d+)/.exec(facts.sent.compilerVersion)?.[1] ?? null;
  if (facts.compilerRelease && sentRelease && facts.compilerRelease !== sentRelease) {
    out.push(`The deployed code was compiled with solc ${facts.compilerRelease} (read from its metadata); you asked for ${sentRelease}.`);
  }
  // A constructor-arguments failure's reason already names the arguments on chain (texts/errors.ts).
  if (facts.library) {
    out.push(`The code calls library ${facts.library.name} at ${facts.library.onchain}; you linked it at ${facts.library.submitted || 'no address'}.`);
  }
  const nameChange = d.fix?.changes.find((c) => c.setting === 'contractName');
  if (nameChange) {
    out.push(`${nameChange.from} is not the contract deployed here; ${nameChange.to} of your sources compiles to the deployed code.`);
  }
  if (d.fix) {
    const others = d.fix.changes.filter((c) => c.setting !== 'contractName');
    const kind = d.fix.matchKind === 'full' ? 'a full match' : 'a partial match';
    if (others.length > 0) out.push(`It matches (${kind}) with ${changeTexts(others, facts.sent).join(' and ')}.`);
    else out.push(`With that name it is ${kind}.`);
    return out.join(' ');
  }
  const c = d.comparison;
  if (c) {
    if (c.onlyMetadata) {
      out.push(
        "Only the metadata hash differs: the code is the same, the sources or metadata settings are not exactly those of the build (a comment, a file name or path, whitespace, another bytecodeHash). Submit the build's own standard JSON input for a full match.",
      );
    } else if (c.firstDifference !== null) {
      const at = (list: { text: string }[]): string => list.map((i) => i.text).join(' ') || '(end of code)';
      out.push(
        `The deployed runtime code is ${c.deployedLength} bytes, yours ${c.compiledLength}; they first differ at byte ${c.firstDifference}: deployed ${at(c.deployedAround)}; compiled ${at(c.compiledAround)}.`,
      );
      out.push(
        c.deployedLength === c.compiledLength
          ? 'Equal lengths usually mean other constants or another compiler setting of the same shape (EVM version, runs).'
          : 'Different lengths usually mean other sources or another optimizer setting.',
      );
    }
  }
  const limit = searchLimitText(d);
  out.push(`No setting tried made it match (${d.tried} tried, ${d.compiles} compiles${limit ? `, ${limit}` : ''}).`);
  return out.join(' ');
}

/** The changes of a fix as settings a user changes: turning the optimizer on and its runs read as one. */
export function changeTexts(changes: readonly SettingChange[], sent: Diagnosis['facts']['sent']): string[] {
  const runs = changes.find((c) => c.setting === 'runs');
  const enabling = changes.some((c) => c.setting === 'optimizer' && c.to === 'enabled');
  return changes
    .filter((c) => !(enabling && c.setting === 'runs'))
    .map((c) =>
      c.setting === 'optimizer' && c.to === 'enabled' && runs ? `the optimizer enabled, ${runs.to} runs (you sent: disabled)` : changeText(c, sent),
    );
}

/** Where the fix is applied: the address, and the chain forge is told. */
export interface FixTarget {
  address: string;
  chainId: number;
}

/**
 * How a found fix is applied with each client, as what a user pastes. forge verifies from its
 * build (forge 1.7 sends the settings of the artifacts it built, whatever verify-contract's own
 * flags say), so a compiler setting is changed by building again with it, then verifying;
 * Hardhat reads its settings from hardhat.config; the API takes form fields.
 */
export interface CorrectedCommand {
  /** Etherscan form fields to send instead (`name=value`). */
  curl: string[];
  /** Lines: what to change in hardhat.config, then the commands. */
  hardhat: string[];
  /** Lines: `forge build` with the changed settings (when there are any), then `forge verify-contract`. */
  forge: string[];
}

/** The changes of a fix as each client sets them, for the receipt page's copyable commands. */
export function correctedCommand(d: Diagnosis, target: FixTarget): CorrectedCommand | null {
  if (!d.fix) return null;
  const sent = d.facts.sent;
  const changes = d.fix.changes;
  const runsChange = changes.find((c) => c.setting === 'runs');
  const enabling = changes.some((c) => c.setting === 'optimizer' && c.to === 'enabled');
  const curl: string[] = [];
  const settings: string[] = [];
  const hardhatFlags: string[] = [];
  const build: string[] = [];
  const toml: string[] = [];
  const verify: string[] = [];
  let contract = sent.contractName;
  for (const c of changes) {
    switch (c.setting) {
      case 'compilerVersion': {
        const release = /^v?(\d+\.\d+\.\d+)/.exec(c.to)?.[1] ?? c.to;
        curl.push(`compilerversion=${c.to}`);
        settings.push(`solidity.version: "${release}"`);
        build.push(`--use ${release}`);
        verify.push(`--compiler-version ${c.to}`);
        break;
      }
      case 'optimizer': {
        const runs = runsChange?.to ?? String(sent.runs);
        curl.push(`optimizationUsed=${c.to === 'enabled' ? 1 : 0}`, ...(c.to === 'enabled' ? [`runs=${runs}`] : []));
        settings.push(`solidity.settings.optimizer: { enabled: ${c.to === 'enabled'}${c.to === 'enabled' ? `, runs: ${runs}` : ''} }`);
        build.push(c.to === 'enabled' ? `--optimize --optimizer-runs ${runs}` : '--optimize false');
        break;
      }
      case 'runs':
        if (enabling) break;
        curl.push('optimizationUsed=1', `runs=${c.to}`);
        settings.push(`solidity.settings.optimizer: { enabled: true, runs: ${c.to} }`);
        build.push(`--optimize --optimizer-runs ${c.to}`);
        break;
      case 'evmVersion':
        curl.push(`evmversion=${c.to}`);
        settings.push(`solidity.settings.evmVersion: "${c.to}"`);
        build.push(`--evm-version ${c.to}`);
        break;
      case 'viaIR':
        curl.push(`viaIR=${c.to === 'true' ? 1 : 0}`);
        settings.push(`solidity.settings.viaIR: ${c.to === 'true'}`);
        if (c.to === 'true') build.push('--via-ir');
        else toml.push('via_ir = false');
        break;
      case 'bytecodeHash':
        curl.push(`sourceCode=<standard JSON input with settings.metadata.bytecodeHash "${c.to}">`);
        settings.push(`solidity.settings.metadata: { bytecodeHash: "${c.to}" }`);
        toml.push(`bytecode_hash = "${c.to}"`);
        break;
      case 'appendCBOR':
        curl.push(`sourceCode=<standard JSON input with settings.metadata.appendCBOR ${c.to}>`);
        settings.push(`solidity.settings.metadata: { appendCBOR: ${c.to} }`);
        toml.push(`cbor_metadata = ${c.to}`);
        break;
      case 'contractName':
        curl.push(`contractname=${c.to}`);
        hardhatFlags.push(`--contract ${c.to}`);
        contract = c.to;
        break;
      case 'constructorArguments':
        curl.push(`constructorArguements=${c.to}`);
        verify.push(`--constructor-args 0x${c.to}`);
        break;
      case 'library':
        curl.push(`libraryname1=${c.name ?? ''}`, `libraryaddress1=${c.to}`);
        hardhatFlags.push(`--libraries libraries.js  # module.exports = { ${(c.name ?? '').split(':').pop()}: "${c.to}" }`);
        verify.push(`--libraries ${c.name ?? ''}:${c.to}`);
        break;
    }
  }
  const forge = [
    ...(toml.length ? [`# in foundry.toml, [profile.default]: ${toml.join('; ')}`] : []),
    ...(build.length || toml.length ? [`forge build ${build.join(' ')}`.trim()] : []),
    `forge verify-contract ${target.address} ${contract} --chain ${target.chainId} ${[...verify, '--watch'].join(' ')}`,
  ];
  // hardhat verify reads the artifacts as they are: a changed setting is compiled first.
  const hardhat = [
    ...settings.map((line) => `# in hardhat.config: ${line}`),
    ...(settings.length ? ['npx hardhat compile'] : []),
    `npx hardhat verify --network devnet ${target.address}${hardhatFlags.length ? ` ${hardhatFlags.join(' ')}` : ''}`,
  ];
  return { curl, hardhat, forge };
}

/** One change to a Vyper submission, as the setting a user changes. */
export function vyperChangeText(c: VyperSettingChange): string {
  switch (c.setting) {
    case 'compilerVersion':
      return `compiler ${c.to} (you sent: ${c.from})`;
    case 'optimize':
      return `optimisation ${c.to === 'true' ? 'on' : c.to === 'false' ? 'off' : `"${c.to}"`} (you sent: ${shown(c.from)})`;
    case 'evmVersion':
      return `EVM version ${c.to} (you sent: ${shown(c.from)})`;
    case 'contractName':
      return `contract name ${c.to} (you sent: ${c.from})`;
    default:
      return `${c.setting} ${c.to} (you sent: ${shown(c.from)})`;
  }
}

/** A Vyper diagnosis as sentences for a failure text: what the deployed code says, then the fix or that none was found. */
export function vyperDiagnosisSentences(d: VyperDiagnosis): string {
  const out: string[] = [];
  const sent = /(\d+\.\d+\.\d+)/.exec(d.facts.sent.compilerVersion)?.[1] ?? null;
  if (d.facts.version && sent && d.facts.version !== sent) {
    out.push(`The deployed code was compiled with Vyper ${d.facts.version} (read from its auxdata); you asked for ${d.facts.sent.compilerVersion}.`);
  }
  const nameChange = d.fix?.changes.find((c) => c.setting === 'contractName');
  if (nameChange) out.push(`${nameChange.from} is not the contract deployed here; ${nameChange.to} of your sources compiles to the deployed code.`);
  if (d.fix) {
    const others = d.fix.changes.filter((c) => c.setting !== 'contractName');
    const kind = d.fix.matchKind === 'full' ? 'a full match' : 'a partial match';
    out.push(others.length > 0 ? `It matches (${kind}) with ${others.map(vyperChangeText).join(' and ')}.` : `With that name it is ${kind}.`);
    return out.join(' ');
  }
  const limit = searchLimitText(d);
  out.push(`No setting tried made it match (${d.tried} tried, ${d.compiles} compiles${limit ? `, ${limit}` : ''}).`);
  return out.join(' ');
}

/** Why a Vyper contract verified only partially (verify/'s VyperPartialReason), for the answer and the contract's page. */
export function vyperPartialText(reason: string): string {
  switch (reason) {
    case 'integrity_differs':
      return (
        'A partial match: the code is the same, but the integrity hash in the deployed init code is another: these sources are not exactly ' +
        "the deployed ones (a comment, whitespace or an imported file's text differs). Submit the exact sources for a full match."
      );
    case 'no_source_hash':
      return 'A partial match: Vyper before 0.4.1 writes no hash of the sources into the code, so no verifier can prove them byte for byte (from 0.4.1 the integrity hash does).';
    case 'creation_not_found':
      return "A partial match: the creation transaction was not found, and a Vyper runtime code carries no hash of its sources (nor proves its immutables' values).";
    default:
      return 'A partial match.';
  }
}
