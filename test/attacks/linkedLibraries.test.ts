/**
 * Attack 10, the opposite error: an exact build linked at deployment reported as a partial
 * match. A contract calling two libraries, one of which calls the other, is compiled unlinked
 * (as Hardhat and Aave build), linked when deployed, and submitted with its libraries as form
 * fields and, separately, inside `settings.libraries` (as Hardhat's verify plugin sends them).
 */
import { type Hex, keccak256, toBytes } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { deployerAccount } from '../helpers/accounts.js';
import { apiGet, sharedService, verifyAndWait } from '../helpers/api.js';
import { deployRaw } from '../helpers/chain.js';
import { type Built, build, standardInput, standardJsonFields } from '../helpers/contracts.js';

const ACCOUNT = deployerAccount('attacks/linkedLibraries');
const { apiUrl, apiKey } = sharedService();

const INNER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library Inner {
    function twice(uint256 a) external pure returns (uint256) { return a * 2; }
}
`;
const OUTER = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./Inner.sol";

library Outer {
    function quad(uint256 a) external pure returns (uint256) { return Inner.twice(Inner.twice(a)); }
}
`;
const POOL = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import "./libs/Inner.sol";
import "./libs/Outer.sol";

contract Pool {
    uint256 public total;
    function add(uint256 a) external { total += Outer.quad(a) + Inner.twice(a); }
}
`;

/** Replaces the placeholder of every library (by fully qualified name) in unlinked code with its address. */
function link(built: Built, libraries: Record<string, string>): Hex {
  let code: string = built.bytecode;
  for (const [name, address] of Object.entries(libraries)) {
    const placeholder = `__$${keccak256(toBytes(name)).slice(2, 36)}$__`;
    code = code.split(placeholder).join(address.slice(2).toLowerCase());
  }
  expect(code).not.toContain('__$');
  return code as Hex;
}

async function record(address: string): Promise<Record<string, string>> {
  return (await apiGet(apiUrl, { module: 'contract', action: 'getsourcecode', address, apikey: apiKey })).result[0] as Record<string, string>;
}

describe('attack 10: libraries linked at deployment', () => {
  const input = standardInput(
    { 'contracts/libs/Inner.sol': INNER, 'contracts/libs/Outer.sol': OUTER, 'contracts/Pool.sol': POOL },
    { optimizer: true, runs: 1000 },
  );
  const libs: Record<string, string> = {};
  let pool: Built;
  let outer: Built;

  beforeAll(async () => {
    const inner = await build('0.8.28', input, 'contracts/libs/Inner.sol', 'Inner');
    outer = await build('0.8.28', input, 'contracts/libs/Outer.sol', 'Outer');
    pool = await build('0.8.28', input, 'contracts/Pool.sol', 'Pool');
    libs['contracts/libs/Inner.sol:Inner'] = (await deployRaw(inner.bytecode, ACCOUNT)).address;
    libs['contracts/libs/Outer.sol:Outer'] = (await deployRaw(link(outer, libs), ACCOUNT)).address;
  });

  const form = () => ({
    libraryname1: 'contracts/libs/Inner.sol:Inner',
    libraryaddress1: libs['contracts/libs/Inner.sol:Inner']!,
    libraryname2: 'Outer',
    libraryaddress2: libs['contracts/libs/Outer.sol:Outer']!,
  });

  it('with its libraries as form fields: a full match, both libraries recorded', async () => {
    const { address } = await deployRaw(link(pool, libs), ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, { ...standardJsonFields(address, pool, 'contracts/Pool.sol:Pool'), ...form() });
    expect(status?.result).toBe('Pass - Verified');
    const r = await record(address);
    expect(r.MatchKind).toBe('full');
    expect(r.Library!.split(';').sort()).toEqual([`Inner:${libs['contracts/libs/Inner.sol:Inner']}`, `Outer:${libs['contracts/libs/Outer.sol:Outer']}`].sort());
    // The input served is the one that was compiled: without settings.libraries.
    expect(JSON.parse(r.SourceCode!.slice(1, -1)).settings.libraries).toBeUndefined();
  });

  it('with its libraries in settings.libraries of an input compiled without them: a full match', async () => {
    const { address } = await deployRaw(link(pool, libs), ACCOUNT);
    const withSettings = {
      ...pool.input,
      settings: {
        ...pool.input.settings,
        libraries: {
          'contracts/libs/Inner.sol': { Inner: libs['contracts/libs/Inner.sol:Inner']! },
          'contracts/libs/Outer.sol': { Outer: libs['contracts/libs/Outer.sol:Outer']! },
        },
      },
    };
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      ...standardJsonFields(address, pool, 'contracts/Pool.sol:Pool'),
      sourceCode: JSON.stringify(withSettings),
    });
    expect(status?.result).toBe('Pass - Verified');
    expect((await record(address)).MatchKind).toBe('full');
  });

  it('the library that links another verifies fully too (call protection and its own link)', async () => {
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      ...standardJsonFields(libs['contracts/libs/Outer.sol:Outer']!, outer, 'contracts/libs/Outer.sol:Outer'),
      libraryname1: 'Inner',
      libraryaddress1: libs['contracts/libs/Inner.sol:Inner']!,
    });
    expect(status?.result).toBe('Pass - Verified');
    const r = await record(libs['contracts/libs/Outer.sol:Outer']!);
    expect(r.MatchKind).toBe('full');
    expect(r.Library).toBe(`Inner:${libs['contracts/libs/Inner.sol:Inner']}`);
  });

  it('a form library at another address than the code calls is a failure that says so', async () => {
    const { address } = await deployRaw(link(pool, libs), ACCOUNT);
    const { status } = await verifyAndWait(apiUrl, apiKey, {
      ...standardJsonFields(address, pool, 'contracts/Pool.sol:Pool'),
      ...form(),
      libraryaddress2: '0x1111111111111111111111111111111111111111',
    });
    expect(status).toMatchObject({ status: '0', message: 'NOTOK' });
    // Etherscan's reason, then the diagnosis: where the code calls the library, and the fix verified.
    expect(status?.result).toMatch(
      /^Fail - Unable to verify\. Library was required but suitable match not found\. The code calls library contracts\/libs\/\w+\.sol:\w+ at 0x[0-9a-f]{40}; you linked it at 0x1111111111111111111111111111111111111111\./,
    );
    expect(status?.result).toMatch(/It matches \(a (full|partial) match\) with library/);
  });
});
