import { type Abi, bytesToHex, createPublicClient, createWalletClient, http, keccak256, type PublicClient, toHex, type WalletClient } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { inject } from 'vitest';
import { DEVNET_MNEMONIC } from '../../src/chain/devnet.js';
import type { Address, Hex } from '../../src/core/types.js';
import type { ContractCreation } from '../../src/verify/index.js';
import { DEVNET_ACCOUNTS } from './accounts.js';
import type { Built } from './contracts.js';

/** Clients for a devnet of a test's own (chain 31337), signing with `privateKey`. */
export function clientsOn(rpcUrl: string, privateKey: Hex) {
  const chain = { ...foundry, rpcUrls: { default: { http: [rpcUrl] } } };
  return {
    publicClient: createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient,
    walletClient: createWalletClient({ chain, account: privateKeyToAccount(privateKey), transport: http(rpcUrl) }),
  };
}

/** Deploys a compiled contract through `clients`; returns its address in lower case. */
export async function deployBuilt(clients: ReturnType<typeof clientsOn>, built: Built, args: readonly unknown[] = []): Promise<Address> {
  const { publicClient, walletClient } = clients;
  const hash = await walletClient.deployContract({
    abi: built.abi,
    bytecode: built.bytecode,
    args: args as unknown[],
    account: walletClient.account,
    chain: walletClient.chain,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return receipt.contractAddress!.toLowerCase() as Address;
}

const keys = new Map<number, Hex>();

/**
 * The private key of one devnet account, derived once per process: deriving all of them from
 * the mnemonic (a PBKDF2 each) took seconds on every deployment.
 */
function devnetKey(accountIndex: number): Hex {
  if (accountIndex < 0 || accountIndex >= DEVNET_ACCOUNTS) throw new Error(`no devnet account ${accountIndex}`);
  let key = keys.get(accountIndex);
  if (!key) {
    key = bytesToHex(mnemonicToAccount(DEVNET_MNEMONIC, { addressIndex: accountIndex }).getHdKey().privateKey!);
    keys.set(accountIndex, key);
  }
  return key;
}

/** Clients for the suite's shared anvil. Account index picks a deployer (tests use their own to avoid nonce races). */
export function devnetClients(accountIndex = 0): { rpcUrl: string; publicClient: PublicClient; walletClient: WalletClient; account: Address } {
  const rpcUrl = inject('rpcUrl');
  const chain = { ...foundry, id: inject('chainId'), rpcUrls: { default: { http: [rpcUrl] } } };
  const key = devnetKey(accountIndex);
  const account = privateKeyToAccount(key);
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient;
  const walletClient = createWalletClient({ chain, account, transport: http(rpcUrl) });
  return { rpcUrl, publicClient, walletClient, account: account.address.toLowerCase() as Address };
}

/** Sends a contract-creation transaction with raw init code; returns the created address and tx hash. */
export async function deployRaw(initCode: Hex, accountIndex = 0): Promise<{ address: Address; transactionHash: Hex }> {
  const { publicClient, walletClient } = devnetClients(accountIndex);
  const hash = await walletClient.sendTransaction({
    account: walletClient.account!,
    chain: walletClient.chain,
    data: initCode,
    gas: 29_000_000n,
  });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (receipt.status !== 'success' || !receipt.contractAddress) throw new Error(`deployment failed: ${hash}`);
  return { address: receipt.contractAddress.toLowerCase() as Address, transactionHash: hash };
}

/** A deployment as verifyContract is given it: the code at the address and its creation. */
export interface DeployedForVerify {
  address: Address;
  runtimeCode: Hex;
  creation: ContractCreation;
}

/** Deploys raw init code and reads back what verifyContract needs. */
export async function deployForVerify(initCode: Hex, accountIndex: number): Promise<DeployedForVerify> {
  const { address, transactionHash } = await deployRaw(initCode, accountIndex);
  const { publicClient, account } = devnetClients(accountIndex);
  const runtimeCode = (await publicClient.getCode({ address })) as Hex;
  return { address, runtimeCode, creation: { creationCode: initCode, transactionHash, blockNumber: 0n, creator: account, byFactory: false } };
}

/** Deploys compiled bytecode with ABI-encoded constructor arguments. */
export async function deployContract(
  abi: Abi,
  bytecode: Hex,
  args: readonly unknown[] = [],
  accountIndex = 0,
): Promise<{ address: Address; transactionHash: Hex }> {
  const { encodeDeployData } = await import('viem');
  const data = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0]);
  return deployRaw(data, accountIndex);
}

/** Places `code` at `address` with anvil_setCode: a contract no transaction created (nothing proves its constructor). */
export async function placeCode(address: Address, code: Hex, rpcUrl = inject('rpcUrl')): Promise<void> {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setCode', params: [address, code] }),
  });
  const body = (await res.json()) as { error?: { message: string } };
  if (body.error) throw new Error(`anvil_setCode: ${body.error.message}`);
}

/** A fresh address no transaction created, derived from `seed`. */
export function freshAddress(seed: string): Address {
  return keccak256(toHex(seed)).slice(0, 42) as Address;
}
