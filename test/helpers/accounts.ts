/** Funded accounts on the suite's anvil (globalSetup starts it with this many). */
export const DEVNET_ACCOUNTS = 80;

/**
 * Which funded account each test file deploys from: a file's place in this list. Two files
 * running at once never share an account, so their nonces cannot race; a name given twice
 * stops the suite at once.
 */
const DEPLOYERS = [
  'devnet',
  'api/verifySourceCode',
  'api/sourcifyCases',
  'clients/hardhatVerify',
  'api/restart',
  'chain/rpcChainReader',
  'limits/compileLimits',
  'proxy/detectProxy',
  'verify/verifyContract',
  'web/explorer',
  'proxy/proxyApi',
  'api/postgres',
  'limits/quotas',
  'clients/hardhatVerifyV3',
  'api/compilerDownload',
  'clients/ozUpgrades',
  'api/nodeDown',
  'fuzz/apiFuzz',
  'attacks/forgedVerdicts',
  'attacks/firstSubmission',
  'attacks/compileCost',
  'attacks/transport',
  'attacks/linkedLibraries',
  'realBuilds/aavePool',
  'clients/foundry',
  'bytecodeDatabase/similarMatch',
  'bytecodeDatabase/chainFollower',
  'bytecodeDatabase/storage',
  'bytecodeDatabase/wholeBuild',
  'api/getContractCreation',
  'clients/castCreation',
  'diagnosis/diagnosis',
  'api/misnamedNpmRelease',
  'api/compilerVersions',
  'api/nodeLag',
  'web/verifyPage',
  'web/sourceView',
  'api/dryRun',
  'attacks/unprovenParts',
  'api/oldCompilerCreations',
  'api/hashlessMetadata',
  'bytecodeDatabase/recordsFollowCode',
  'bytecodeDatabase/rollback',
  'limits/hostileSources',
  'limits/hostileForms',
  'web/layout',
  'web/formWork',
  'sourcify/sourcifyApi',
  'sourcify/sourcifyCases',
  'clients/foundrySourcify',
  'clients/hardhatSourcify',
  'api/keptAnswers',
  'verify/leanCompile',
  'api/compileAhead',
  'doors/oneAnswer',
  'attacks/compileShare',
  'limits/keylessClients',
  'attacks/keylessStalls',
  'verify/verifyVyperContract',
  'verify/vyperCases',
  'bytecodeDatabase/vyperCopies',
  'clients/foundryScript',
  'api/v2Path',
  'clients/hardhatIgnition',
  'cli/publish',
  'clients/receiptCommands',
  'web/newUser',
  'api/installedSolc',
  'sourcify/storageLayout',
  'api/vyperApi',
  'clients/foundryVyper',
  'web/vyperForm',
  'cli/storeLayouts',
  'sourcify/sourcifyVyper',
  'clients/hardhatVyper',
  'web/storageValues',
  'api/checkUpgrade',
  'api/proxyHistory',
] as const;

export type DeployerName = (typeof DEPLOYERS)[number];

if (new Set(DEPLOYERS).size !== DEPLOYERS.length || DEPLOYERS.length > DEVNET_ACCOUNTS) {
  throw new Error("test/helpers/accounts.ts: every test file needs an account of its own, within the devnet's accounts");
}

/** The devnet account index reserved for a test file. */
export function deployerAccount(file: DeployerName): number {
  return DEPLOYERS.indexOf(file);
}
