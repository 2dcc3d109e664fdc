import { describe, expect, it } from 'vitest';
import type { Hex } from '../../core/types.js';
import { codeContainsSelector, hasDelegateCall, isKnownSafeProxyCode, matchProxyBytecode, stripMetadata } from './bytecodeShapes.js';

const target = 'bebebebebebebebebebebebebebebebebebebebe';
const implementation = `0x${target}`;

describe('matchProxyBytecode', () => {
  it.each([
    ['EIP-1167', `0x363d3d373d3d3d363d73${target}5af43d82803e903d91602b57fd5bf3`, 'eip1167'],
    ['EIP-1167 with immutable args', `0x363d3d373d3d3d363d73${target}5af43d82803e903d91602b57fd5bf3${'00'.repeat(31)}2a`, 'eip1167'],
    ['44-byte clone', `0x3d3d3d3d363d3d37363d73${target}5af43d3d93803e602a57fd5bf3`, 'clone44'],
    ['ERC-7511 PUSH0 clone', `0x365f5f375f5f365f73${target}5af43d5f5f3e5f3d91602a57fd5bf3`, 'push0_clone'],
    ['Solady PUSH0 clone', `0x5f5f365f5f37365f73${target}5af43d5f5f3e6029573d5ffd5b3d5ff3`, 'push0_clone'],
    ['Vyper forwarder', `0x366000600037611000600036600073${target}5af4602c57600080fd5b6110006000f3`, 'vyper_forwarder'],
    ['Uniswap v1 forwarder', `0x366000600037611000600036600073${target}5af41558576110006000f3`, 'vyper_forwarder'],
    ['EIP-7702 designator', `0xef0100${target}`, 'eip7702'],
  ] as const)('%s', (_label, code, pattern) => {
    expect(matchProxyBytecode(code as Hex)).toEqual({ pattern, implementation });
  });

  it('reads vanity EIP-1167 clones with a shorter push, left-padding the address', () => {
    // PUSH17: three leading zero bytes; the JUMPDEST moves 3 bytes earlier (0x28).
    const code: Hex = `0x363d3d373d3d3d363d70${target.slice(6)}5af43d82803e903d91602857fd5bf3`;
    expect(matchProxyBytecode(code)).toEqual({ pattern: 'eip1167', implementation: `0x000000${target.slice(6)}` });
  });

  it('rejects a vanity clone whose jump target does not fit its push size', () => {
    const code: Hex = `0x363d3d373d3d3d363d70${target.slice(6)}5af43d82803e903d91602b57fd5bf3`;
    expect(matchProxyBytecode(code)).toBeNull();
  });

  it('recognises the Sequence wallet, whose implementation is in storage', () => {
    expect(matchProxyBytecode('0x363d3d373d3d3d363d30545af43d82803e903d91601857fd5bf3')).toEqual({
      pattern: 'sequence_wallet',
    });
  });

  it.each([
    ['truncated clone', `0x363d3d373d3d3d363d73${target}5af43d82803e903d91602b57fd`],
    ['EIP-7702 designator with an extra byte', `0xef0100${target}00`],
    ['ordinary contract code', '0x6080604052348015600e575f5ffd5b50'],
    ['empty code', '0x'],
  ])('%s is not a bytecode proxy', (_label, code) => {
    expect(matchProxyBytecode(code as Hex)).toBeNull();
  });
});

// solc 0.7.6, no optimizer: the Safe 1.3.0 proxy runtime (metadata hash differs per build).
const SAFE_RUNTIME: Hex =
  '0x608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea2646970667358221220ca62054aef92261e498f1acdc4c3fab6f49c7c3f125930c70b28b6a6d74f2a2b64736f6c63430007060033';

describe('known Safe proxy runtime', () => {
  it('matches whatever the metadata hash', () => {
    expect(isKnownSafeProxyCode(SAFE_RUNTIME)).toBe(true);
    const otherHash = SAFE_RUNTIME.replace('ca62054a', '00000000') as Hex;
    expect(isKnownSafeProxyCode(otherHash)).toBe(true);
  });

  it('does not match other code', () => {
    expect(isKnownSafeProxyCode(SAFE_RUNTIME.replace('600054', '600154') as Hex)).toBe(false);
  });
});

describe('code scans', () => {
  it('strips CBOR metadata only when the tail is a CBOR map', () => {
    expect(stripMetadata(SAFE_RUNTIME.slice(2)).endsWith('f3fe')).toBe(true);
    expect(stripMetadata('6000f30001')).toBe('6000f30001');
  });

  it('finds selectors only byte-aligned', () => {
    expect(codeContainsSelector('0x635c60da1b14', '5c60da1b')).toBe(true);
    expect(codeContainsSelector('0x65c60da1b014', '5c60da1b')).toBe(false);
    // Safe's proxy compares calldata with a PUSH32 of masterCopy().
    expect(codeContainsSelector(SAFE_RUNTIME, 'a619486e')).toBe(true);
  });

  it('sees DELEGATECALL as an instruction, not inside push data', () => {
    expect(hasDelegateCall(SAFE_RUNTIME)).toBe(true);
    expect(hasDelegateCall('0x63f4f4f4f400')).toBe(false);
    expect(hasDelegateCall('0x600060006000f200')).toBe(true);
  });
});
