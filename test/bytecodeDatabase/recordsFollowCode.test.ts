/**
 * A record is served only while its address holds the code it describes. anvil_setCode (which
 * mines no block) on a verified address, with the chain followed and without: within the check
 * window every read says not verified (getabi, getsourcecode, the contract page, the verified
 * list), the history keeps the record, a copy matched through the address no longer names it,
 * and the code set back is verified again on read. Nobody following the chain, anvil_reset and
 * another contract deployed at the victim's address: reads say not verified. The chain is
 * reset and its code rewritten: a devnet of its own, with two services of their own.
 */

import { encodeAbiParameters, parseAbiParameters } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Devnet, devnetAccounts, freePort, startDevnet } from '../../src/chain/devnet.js';
import type { Address, Hex } from '../../src/core/types.js';
import { apiGet, verifyAndWait } from '../helpers/api.js';
import { clientsOn, deployBuilt } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

/** The check window the services run with; a read after it compares the code again. */
const WINDOW_MS = 1000;
const NOT_VERIFIED = 'Contract source code not verified';

const source = (tag: string) => `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;
/// Its record must follow its code (${tag}).
contract Vault {
    uint256 public limit;
    constructor(uint256 l) { limit = l; }
    function raise(uint256 by) external { limit += by; }
}
/// What takes the victim's address: other code.
contract Impostor {
    function limit() external pure returns (uint256) { return type(uint256).max; }
    function drain(address to) external { payable(to).transfer(address(this).balance); }
}
`;

describe('records follow the code at their address', () => {
  const tag = `records-${Date.now()}`;
  let devnet: Devnet;
  let rpcUrl: string;
  /** The chain followed. */
  let followed: RunningService;
  /** --follow-chain false. */
  let unfollowed: RunningService;
  let followedKey: string;
  let unfollowedKey: string;
  let vault: Built;
  let impostor: Built;

  const clients = (accountIndex: number) => clientsOn(rpcUrl, devnetAccounts(10)[accountIndex]!.privateKey);
  const deploy = (built: Built, args: readonly unknown[], accountIndex: number): Promise<Address> => deployBuilt(clients(accountIndex), built, args);
  const rpc = async (method: string, params: unknown[]): Promise<unknown> =>
    clients(0).publicClient.request({ method: method as never, params: params as never });
  const codeAt = async (address: Address) => (await rpc('eth_getCode', [address, 'latest'])) as Hex;
  const impostorCode = (): Hex => `0x${impostor.output.contracts!['Vault.sol']!['Impostor']!.evm!.deployedBytecode!.object}`;
  /** Every address verified before the chain was reset. */
  const verifiedBefore: Address[] = [];
  /** Long enough for every cached comparison to have expired: the next read compares again. */
  const windowPasses = () => new Promise((r) => setTimeout(r, WINDOW_MS + 200));

  const record = async (service: RunningService, key: string, address: string) =>
    (await apiGet(service.apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: key })).result[0] as Record<string, string>;
  const abi = async (service: RunningService, key: string, address: string) =>
    (await apiGet(service.apiUrl, { module: 'contract', action: 'getabi', address, apikey: key })).result as string;
  const page = async (service: RunningService, address: string) => (await fetch(`${service.baseUrl}/address/${address}`)).text();
  const listed = async (service: RunningService) => (await fetch(`${service.baseUrl}/contracts`)).text();
  const waitFor = async (what: string, service: RunningService, ok: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> => {
    const start = Date.now();
    while (!(await ok())) {
      if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms\n${service.output().slice(-6000)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** Every read of `address` says it is not verified. */
  const expectNotVerified = async (service: RunningService, key: string, address: Address): Promise<string> => {
    expect(await abi(service, key, address)).toBe(NOT_VERIFIED);
    expect(await record(service, key, address)).toMatchObject({ ContractName: '', ABI: NOT_VERIFIED, SourceCode: '' });
    const html = await page(service, address);
    expect(html).toContain('Not verified');
    expect(html).not.toContain('<span class="badge ok">Verified</span>');
    expect(await listed(service)).not.toContain(address);
    return html;
  };

  beforeAll(async () => {
    devnet = await startDevnet({ port: await freePort() });
    rpcUrl = devnet.rpcUrl;
    const args = ['--record-check-ms', String(WINDOW_MS), '--rate-free', '10000', '--follow-poll-ms', '200'];
    const followedDir = await newDataDir();
    followedKey = await createKey(followedDir);
    followed = await startService({ rpcUrl, dataDir: followedDir, args });
    const unfollowedDir = await newDataDir();
    unfollowedKey = await createKey(unfollowedDir);
    unfollowed = await startService({ rpcUrl, dataDir: unfollowedDir, args: [...args, '--follow-chain', 'false'] });
    const input = standardInput({ 'Vault.sol': source(tag) }, { optimizer: true });
    vault = await build('0.8.28', input, 'Vault.sol', 'Vault');
    impostor = await build('0.8.28', input, 'Vault.sol', 'Impostor');
  }, 300_000);

  afterAll(async () => {
    await Promise.all([followed?.stop(), unfollowed?.stop()]);
    await devnet?.stop();
  });

  for (const mode of ['followed', 'not followed'] as const) {
    it(`anvil_setCode on a verified address (chain ${mode}): not verified within the window, kept in the history, found again when the code is back`, async () => {
      const service = mode === 'followed' ? followed : unfollowed;
      const key = mode === 'followed' ? followedKey : unfollowedKey;
      const account = mode === 'followed' ? 1 : 2;
      const victim = await deploy(vault, [5n], account);
      const verified = await verifyAndWait(service.apiUrl, key, standardJsonFields(victim, vault, 'Vault.sol:Vault'));
      expect(verified.status?.result).toBe('Pass - Verified');
      // A copy, verified through the victim (by the follower, or when read).
      const copy = await deploy(vault, [6n], account);
      await waitFor('the copy verified', service, async () => (await record(service, key, copy))['SimilarMatch'] === victim);
      expect(await listed(service)).toContain(victim);
      const original = await codeAt(victim);

      await rpc('anvil_setCode', [victim, impostorCode()]);
      expect(await codeAt(victim)).not.toBe(original);
      await windowPasses();
      const html = await expectNotVerified(service, key, victim);
      // The record is kept: the page's history says why it left, with the receipt that verified it.
      expect(html).toContain('taken off when the code at this address changed');
      expect(html).toContain(`/receipt/${verified.submit.result}`);
      // The copy still holds its code: still verified, but no longer "through" the victim.
      expect(await record(service, key, copy)).toMatchObject({ ContractName: 'Vault', SimilarMatch: '' });

      // The same code back at the address: verified again on read (once the "not a copy" memory of the address expires).
      await rpc('anvil_setCode', [victim, original]);
      await waitFor('the code set back verified again', service, async () => (await record(service, key, victim))['ContractName'] === 'Vault', 30_000);
      expect(await record(service, key, victim)).toMatchObject({
        MatchKind: 'full',
        SimilarMatch: '',
        ConstructorArguments: encodeAbiParameters(parseAbiParameters('uint256'), [5n]).slice(2),
      });
      expect(await abi(service, key, victim)).not.toBe(NOT_VERIFIED);
      if (mode === 'not followed') verifiedBefore.push(victim, copy);
    });
  }

  it("nobody following the chain, anvil_reset and another contract at the victim's address: not verified, the old record in the history", async () => {
    await followed.stop();
    const service = unfollowed;
    const key = unfollowedKey;
    // An account not used yet: the victim is its first deployment, and so is the impostor after the reset.
    const victim = await deploy(vault, [9n], 3);
    expect((await verifyAndWait(service.apiUrl, key, standardJsonFields(victim, vault, 'Vault.sol:Vault'))).status?.result).toBe('Pass - Verified');
    expect(await abi(service, key, victim)).not.toBe(NOT_VERIFIED);
    expect(await listed(service)).toContain(victim);

    await rpc('anvil_reset', []);
    expect(await deploy(impostor, [], 3)).toBe(victim);
    await windowPasses();
    const html = await expectNotVerified(service, key, victim);
    expect(html).toContain('taken off when the chain restarted from genesis');
    // Nothing of the old chain is served.
    const list = await listed(service);
    for (const address of verifiedBefore) expect(list).not.toContain(address);
    // The log line is waited for: it fails the test when it does not come.
    await service.outputWith('the chain restarted from genesis (noticed on a read)');
  });
});
