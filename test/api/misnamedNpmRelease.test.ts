import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { verifyAndWait } from '../helpers/api.js';
import { deployContract } from '../helpers/chain.js';
import { build, standardInput } from '../helpers/contracts.js';
import { createKey, startService } from '../helpers/service.js';

const ACCOUNT = deployerAccount('api/misnamedNpmRelease');
const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity 0.8.7;
contract Misnamed { uint256 public constant ANSWER = 87; }
`;

describe('a release whose npm package of the same name holds another compiler', () => {
  it('verifies a contract compiled with 0.8.7 from an empty cache with only the npm registry (solc@0.8.7 holds 0.7.5)', async () => {
    // The developer's compiler: the 0.8.7 soljson of solc@0.8.7-fixed.
    const built = await build('0.8.7', standardInput({ 'Misnamed.sol': SOURCE }), 'Misnamed.sol', 'Misnamed');
    expect(built.compilerVersion).toBe('v0.8.7+commit.e28d00a7');
    const { address } = await deployContract(built.abi, built.bytecode, [], ACCOUNT);
    const dataDir = mkdtempSync(join(tmpdir(), 'solproof-misnamed-'));
    // No mirror (the test service runs with --solc-mirror ''), nothing cached: npm is the only source.
    const service = await startService({ rpcUrl: inject('rpcUrl'), dataDir, seedCompilers: false, args: ['--rate-free', '1000'] });
    try {
      const key = await createKey(dataDir);
      const { submit, status } = await verifyAndWait(service.apiUrl, key, {
        contractaddress: address,
        sourceCode: SOURCE,
        contractname: 'Misnamed',
        compilerversion: built.compilerVersion,
      });
      expect(submit.status, JSON.stringify(submit)).toBe('1');
      expect(status?.result, service.output()).toBe('Pass - Verified');
      // The cache holds 0.8.7 under its own name, and nothing named after what solc@0.8.7 holds.
      // (The service's own solc, 0.8.28, is put there at start.)
      const cached = readdirSync(join(dataDir, 'compilers')).filter((f) => f.startsWith('soljson-') && !f.startsWith('soljson-v0.8.28+'));
      expect(cached).toEqual(['soljson-v0.8.7+commit.e28d00a7.js']);
    } finally {
      await service.stop();
    }
  });
});
