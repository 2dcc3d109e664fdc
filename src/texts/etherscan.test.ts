import { describe, expect, it } from 'vitest';
import { TEXT } from './etherscan.js';

// The texts docs/api.md lists that clients compare byte for byte: Hardhat, Foundry and
// OpenZeppelin's plugin branch on them, so an edit here breaks a client.
describe('Etherscan texts', () => {
  it.each([
    [TEXT.okKeyless, 'OK-Missing/Invalid API Key, rate limit of 1/5sec applied'],
    [TEXT.maxRateKeyless, 'Max rate limit reached, please use API Key for higher rate limit'],
    [TEXT.invalidApiKey, 'Invalid API Key'],
    [TEXT.tooManyInvalidKeys, 'Too many invalid api key attempts, please try again later'],
    [TEXT.notVerified, 'Contract source code not verified'],
    [TEXT.invalidAddress, 'Error! Invalid address format'],
    [TEXT.alreadyVerified, 'Contract source code already verified'],
    [TEXT.pending, 'Pending in queue'],
    [TEXT.pass, 'Pass - Verified'],
    [TEXT.fail, 'Fail - Unable to verify'],
    [TEXT.alreadyVerifiedStatus, 'Already Verified'],
    [TEXT.unknownUid, 'Unknown UID'],
    [TEXT.reasonBytecodeMismatch, 'Compiled contract deployment bytecode does NOT match the transaction deployment bytecode.'],
    [TEXT.reasonConstructorArgs, 'Please check if the correct constructor argument was entered.'],
    [TEXT.reasonContractName('Token'), 'Unable to locate ContractName Token, did you specify the correct Contract Name?'],
    [TEXT.reasonLibrary, 'Library was required but suitable match not found'],
    [TEXT.proxyNotDetected, 'A corresponding implementation contract was unfortunately not detected for the proxy address.'],
    [TEXT.unableToLocateCode('0xabc'), 'Unable to locate ContractCode at 0xabc'],
    // Clients (hardhat-verify, forge) retry on the Etherscan text the refusal starts with.
    [TEXT.noCodeAtBlock('0xabc', 12n, 3000), 'Unable to locate ContractCode at 0xabc: the node had no code there at block 12 (still none after waiting 3 s)'],
    [TEXT.noCodeAtBlock('0xabc', 12n, 0), 'Unable to locate ContractCode at 0xabc: the node had no code there at block 12'],
    [TEXT.failWithReason('Why.'), 'Fail - Unable to verify. Why.'],
    [TEXT.compilationError('ParserError: x'), 'Solidity Compilation Error: ParserError: x'],
    // Foundry's getcontractcreation client looks for this text to tell "not a contract".
    [TEXT.noDataFound, 'No data found'],
    [
      TEXT.proxyFound('0xAAAA000000000000000000000000000000000001', '0xBBBB000000000000000000000000000000000002'),
      "The proxy's (0xaaaa000000000000000000000000000000000001) implementation contract is found at 0xbbbb000000000000000000000000000000000002 and is successfully updated.",
    ],
  ])('%s', (actual, expected) => {
    expect(actual).toBe(expected);
  });
});
