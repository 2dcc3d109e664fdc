/**
 * The diagnosis of a failed verification in words: beside Etherscan's texts (etherscan.ts), the
 * one place that turns a diagnosis's facts into what clients and the receipt page show.
 * The shapes here are what verify/'s diagnosis gives (structurally: core imports nothing).
 */

export interface DiagnosisChangeView {
  setting: string;
  name?: string;
  from: string;
  to: string;
}

export interface DiagnosisView {
  code: string;
  facts: {
    compilerRelease: string | null;
    hashKind: string;
    sent: {
      compilerVersion: string;
      optimizer: boolean;
      runs: number;
      evmVersion: string;
      viaIR: boolean;
      bytecodeHash: string;
      appendCBOR: boolean;
      contractName: string;
    };
    sameShape: string[];
    onchainConstructorArguments?: string;
    library?: { name: string; onchain: string; submitted: string };
  };
  fix: { changes: DiagnosisChangeView[]; matchKind: string } | null;
  comparison: {
    deployedLength: number;
    compiledLength: number;
    firstDifference: number | null;
    deployedAround: { offset: number; text: string }[];
    compiledAround: { offset: number; text: string }[];
    onlyMetadata: boolean;
  } | null;
  tried: number;
  compiles: number;
  budgetSpent: boolean;
  /** No contract of the sources has its functions in the deployed code: the search stopped there. */
  unrelated?: boolean;
  /** Absent from diagnoses stored before the time limit stopped compiles in flight. */
  limitReached?: 'compiles' | 'time' | null;
  compilesStopped?: number;
}

/** Why a diagnosis stopped before trying every setting (`budget spent`, or its time limit with the compile it cut short); null when it did not. */
export function searchLimitText(d: Pick<DiagnosisView, 'budgetSpent' | 'limitReached' | 'compilesStopped'>): string | null {
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
export function changeText(c: DiagnosisChangeView, sent: DiagnosisView['facts']['sent']): string {
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
export function metadataSettingsText(changes: readonly DiagnosisChangeView[]): string {
  return changes
    .map((c) =>
      c.setting === 'appendCBOR'
        ? `settings.metadata.appendCBOR ${c.to} (you sent: ${c.from})`
        : `settings.metadata.bytecodeHash "${c.to}" (you sent: ${c.from})`,
    )
    .join(', ');
}

/** The diagnosis as sentences for a failure text: facts first, then the fix or where the codes differ. */
export function diagnosisSentences(d: DiagnosisView): string {
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
export function changeTexts(changes: readonly DiagnosisChangeView[], sent: DiagnosisView['facts']['sent']): string[] {
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
export function correctedCommand(d: DiagnosisView, target: FixTarget): CorrectedCommand | null {
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
