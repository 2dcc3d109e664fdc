import { describe, expect, it } from 'vitest';
import { deployerAccount } from './helpers/accounts.js';
import { deployRaw, devnetClients } from './helpers/chain.js';

describe('shared devnet', () => {
  it('deploys raw init code and serves its runtime code', async () => {
    // init code that returns the 1-byte runtime 0x00 (STOP)
    const { address } = await deployRaw('0x6001600081600a8239f300');
    const code = await devnetClients(deployerAccount('devnet')).publicClient.getCode({ address });
    expect(code).toBe('0x00');
  });
});
