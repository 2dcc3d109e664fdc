/**
 * A real build from another project's own pipeline: Aave v3's Pool as published in
 * @aave/core-v3 (Hardhat artifacts and build-info). Aave compiles the Pool unlinked, with its
 * logic in external libraries (one of which, FlashLoanLogic, itself calls BorrowLogic), and
 * links the libraries' addresses when it deploys. Given Aave's exact standard JSON input and the
 * libraries as form fields, the service must find a full match.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { encodeAbiParameters, type Hex, keccak256, toBytes } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployRaw, devnetClients } from '../helpers/chain.js';
import { SOLC_PACKAGES } from '../helpers/solc.js';

// Deployer account reserved for this file, so nonces never race with other files.
const ACCOUNT = deployerAccount('realBuilds/aavePool');
const { apiUrl, apiKey } = sharedService();
const require = createRequire(import.meta.url);

const AAVE = dirname(require.resolve('@aave/core-v3/package.json'));
const POOL_SOURCE = 'contracts/protocol/pool/Pool.sol';
const POOL = `${POOL_SOURCE}:Pool`;
const POOL_ARTIFACT = join(AAVE, 'artifacts', POOL_SOURCE, 'Pool.json');
const LOGIC = 'contracts/protocol/libraries/logic';
/** The libraries Aave's Pool is linked with at deployment (checked against the artifact below). */
const EXPECTED_LIBRARIES = ['BorrowLogic', 'BridgeLogic', 'EModeLogic', 'FlashLoanLogic', 'LiquidationLogic', 'PoolLogic', 'SupplyLogic'].map(
  (n) => `${LOGIC}/${n}.sol:${n}`,
);

type LinkReferences = Record<string, Record<string, { start: number; length: number }[]>>;

interface Artifact {
  contractName: string;
  sourceName: string;
  bytecode: Hex;
  deployedBytecode: Hex;
  linkReferences: LinkReferences;
  deployedLinkReferences: LinkReferences;
}

interface BuildInfo {
  solcVersion: string;
  solcLongVersion: string;
  input: { language: string; sources: Record<string, unknown>; settings: Record<string, unknown> };
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The artifact of `path:Name` (Hardhat keeps it at artifacts/<path>/<Name>.json). */
function artifactOf(fullyQualified: string): Artifact {
  const [source, name] = fullyQualified.split(':') as [string, string];
  return readJson<Artifact>(join(AAVE, 'artifacts', source, `${name}.json`));
}

/** The fully qualified names of the libraries a link reference table names. */
function librariesOf(refs: LinkReferences): string[] {
  return Object.entries(refs).flatMap(([source, names]) => Object.keys(names).map((name) => `${source}:${name}`));
}

/** Writes each library's address at the offsets the artifact's link references give. */
function link(artifact: Artifact, addresses: Record<string, string>): Hex {
  let code = artifact.bytecode.slice(2);
  for (const [source, names] of Object.entries(artifact.linkReferences)) {
    for (const [name, refs] of Object.entries(names)) {
      const fq = `${source}:${name}`;
      const address = addresses[fq];
      if (!address) throw new Error(`${artifact.contractName} needs ${fq}, which is not deployed`);
      // Hardhat's placeholder: the first 34 hex digits of keccak256 of the fully qualified name.
      const placeholder = `__$${keccak256(toBytes(fq)).slice(2, 36)}$__`;
      for (const { start, length } of refs) {
        expect(length).toBe(20);
        expect(code.slice(start * 2, (start + length) * 2)).toBe(placeholder);
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2);
      }
    }
  }
  expect(code).not.toContain('__$');
  return `0x${code}` as Hex;
}

async function record(address: string): Promise<Record<string, string>> {
  return (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;
}

describe("Aave v3's Pool from @aave/core-v3 (Hardhat build, libraries linked at deployment)", () => {
  const pool = readJson<Artifact>(POOL_ARTIFACT);
  const dbg = readJson<{ buildInfo: string }>(POOL_ARTIFACT.replace(/\.json$/, '.dbg.json'));
  const buildInfo = readJson<BuildInfo>(join(dirname(POOL_ARTIFACT), dbg.buildInfo));
  const libraries = librariesOf(pool.linkReferences);
  const addresses: Record<string, string> = {};
  // Pool's constructor only stores its IPoolAddressesProvider (an immutable): any nonzero address will do.
  const provider = devnetClients(ACCOUNT).account;
  const constructorArguments = encodeAbiParameters([{ type: 'address' }], [provider]).slice(2);
  let poolAddress: string;

  /** Deploys a library after the libraries it links itself (FlashLoanLogic calls BorrowLogic). */
  async function deployLibrary(fq: string): Promise<string> {
    if (addresses[fq]) return addresses[fq];
    const artifact = artifactOf(fq);
    for (const dependency of librariesOf(artifact.linkReferences)) await deployLibrary(dependency);
    addresses[fq] = (await deployRaw(link(artifact, addresses), ACCOUNT)).address;
    return addresses[fq];
  }

  beforeAll(async () => {
    expect(SOLC_PACKAGES[buildInfo.solcVersion], `Aave now builds with solc ${buildInfo.solcVersion}: install it as an npm alias`).toBeDefined();
    for (const fq of libraries) await deployLibrary(fq);
    poolAddress = (await deployRaw(`${link(pool, addresses)}${constructorArguments}` as Hex, ACCOUNT)).address;
  });

  it('is built unlinked against seven logic libraries, one of which links another', () => {
    expect(buildInfo.solcLongVersion).toBe('0.8.10+commit.fc410830');
    expect([...libraries].sort()).toEqual(EXPECTED_LIBRARIES);
    expect(librariesOf(pool.deployedLinkReferences).sort()).toEqual(EXPECTED_LIBRARIES);
    const linkedByLibraries = Object.fromEntries(
      EXPECTED_LIBRARIES.map((fq) => [fq, librariesOf(artifactOf(fq).linkReferences)]).filter(([, deps]) => deps!.length),
    );
    expect(linkedByLibraries).toEqual({ [`${LOGIC}/FlashLoanLogic.sol:FlashLoanLogic`]: [`${LOGIC}/BorrowLogic.sol:BorrowLogic`] });
    // Small enough for anvil's default code size limit (24576 bytes).
    expect((pool.deployedBytecode.length - 2) / 2).toBeLessThanOrEqual(24_576);
  });

  // Measured: about 6 s (solc-js 0.8.10 compiles the Pool with runs 100000 in about 5.5 s, cold
  // compiler load included). The margin covers a busy suite; the service's own compile limit is
  // 120 s and waitForVerdict gives up after 180 s, so its error comes before vitest's.
  it("Aave's exact standard JSON input with its libraries as form fields: a full match", { timeout: 200_000 }, async () => {
    const form: Record<string, string> = {};
    libraries.forEach((fq, i) => {
      form[`libraryname${i + 1}`] = fq;
      form[`libraryaddress${i + 1}`] = addresses[fq]!;
    });
    const { submit, status } = await verifyAndWait(
      apiUrl,
      apiKey,
      {
        contractaddress: poolAddress,
        sourceCode: JSON.stringify(buildInfo.input),
        codeformat: 'solidity-standard-json-input',
        contractname: POOL,
        compilerversion: `v${buildInfo.solcLongVersion}`,
        constructorArguments,
        ...form,
      },
      { chainid: '31337', verbose: '1' },
    );
    expect(submit.status, JSON.stringify(submit)).toBe('1');
    expect(status?.result, JSON.stringify(status)).toBe('Pass - Verified');

    const r = await record(poolAddress);
    expect(r.MatchKind).toBe('full');
    expect(r.CreationMatch).toBe('full');
    expect(r.RuntimeMatch).toBe('full');
    expect(r.ContractName).toBe('Pool');
    expect(r.CompilerVersion).toBe(`v${buildInfo.solcLongVersion}`);
    expect(r.ConstructorArguments).toBe(constructorArguments);
    expect(r.Library!.split(';').sort()).toEqual(libraries.map((fq) => `${fq.split(':')[1]}:${addresses[fq]}`).sort());
    // The input served is Aave's own, less the files of the build that Pool does not import (its metadata lists the rest).
    const served = JSON.parse(r.SourceCode!.slice(1, -1)) as { sources: Record<string, unknown>; settings: unknown };
    expect(Object.keys(served.sources)).toContain(pool.sourceName);
    expect(Object.keys(served.sources).length).toBeLessThan(Object.keys(buildInfo.input.sources).length);
    for (const [path, source] of Object.entries(served.sources)) expect(source).toEqual(buildInfo.input.sources[path]);
    // Aave's settings as compiled; outputSelection, which cannot change the code, is not published.
    const { outputSelection: _selection, ...compiled } = buildInfo.input.settings as Record<string, unknown>;
    expect(served.settings).toEqual(compiled);
  });
});
