/**
 * A service started with an empty compiler cache and no source to download from (no mirror, no
 * npm registry) still verifies with solc 0.8.28: the build installed with the service (npm
 * `solc`) is put into its cache at start, and nothing is downloaded.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, singleFileFields, standardInput } from '../helpers/contracts.js';
import { createKey, newDataDir, type RunningService, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/installedSolc');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

contract Installed {
    uint256 public constant EDITION = ${Date.now()};
    function edition() external pure returns (uint256) { return EDITION; }
}
`;

describe('the solc installed with the service', () => {
  let service: RunningService;
  let key: string;

  beforeAll(async () => {
    const dataDir = await newDataDir(false);
    key = await createKey(dataDir);
    service = await startService({
      dataDir,
      rpcUrl: inject('rpcUrl'),
      seedCompilers: false,
      args: ['--npm-registry', ''],
      env: { SOLPROOF_LOG_LEVEL: 'info' },
    });
  });
  afterAll(async () => service?.stop());

  it('verifies with 0.8.28 from an empty cache, with nothing to download from and nothing downloaded', async () => {
    const built = await build('0.8.28', standardInput({ 'Installed.sol': SOURCE }, { optimizer: true, runs: 200 }), 'Installed.sol', 'Installed');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const { status } = await verifyAndWait(service.apiUrl, key, singleFileFields(address, built, 'Installed', SOURCE));
    expect(status?.result).toBe('Pass - Verified');
    const log = service.output();
    expect(log).toContain('"compiler cache: the installed solc-js build added"');
    expect(log).not.toContain('"compiler downloaded"');
  });
});
