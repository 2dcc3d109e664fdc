import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/compilerDownload');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.0;
contract Fetched { uint256 public constant ANSWER = 42; }
`;

describe('a service with an empty compiler cache', () => {
  it('fetches the compiler from the npm registry on first use and verifies', async () => {
    // Like the default ./.data: a data dir inside an ES-module package.
    const project = mkdtempSync(join(tmpdir(), 'solproof-project-'));
    writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
    const dataDir = join(project, '.data');
    // Not 0.8.28: the service puts the solc installed with it (0.8.28) into its cache at start.
    const built = await build('0.8.26', standardInput({ 'Fetched.sol': SOURCE }), 'Fetched.sol', 'Fetched');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const service = await startService({ rpcUrl: inject('rpcUrl'), dataDir, seedCompilers: false, args: ['--rate-free', '1000'] });
    try {
      const key = await createKey(dataDir);
      const { status } = await verifyAndWait(service.apiUrl, key, {
        contractaddress: address,
        sourceCode: SOURCE,
        contractname: 'Fetched',
        compilerversion: built.compilerVersion,
      });
      expect(status?.result, service.output()).toBe('Pass - Verified');
      expect(readdirSync(join(dataDir, 'compilers'))).toContain('soljson-v0.8.26+commit.8a97fa7a.js');
    } finally {
      await service.stop();
    }
  });
});
