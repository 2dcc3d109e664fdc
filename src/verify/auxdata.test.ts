import { base58 } from '@scure/base';
import { describe, expect, it } from 'vitest';
import { decodeAuxdata, hasContentHash, swarmSourceOf, tailAuxdata, tryDecodeAuxdata } from './auxdata.js';
import { auxdataValuesFromLegacyAssembly, findAuxdataPositions } from './auxdataPositions.js';

// Real auxdata written by solc 0.8.28 (ipfs), 0.4.26 (bzzr0), 0.5.17 (bzzr1) and 0.8.28 with bytecodeHash none.
const IPFS_0_8_28 = 'a2646970667358221220781d6a314bd5c511e0e1719e6f6847194e0ca6831ea721548cec3271f37e12e564736f6c634300081c0033';
const BZZR0_0_4_26 = 'a165627a7a72305820b4faf8aad1780e69a8275ff2c77d36124f6152f58e661f3822a24126761612fd0029';
const BZZR1_0_5_17 = 'a265627a7a723158201d8421a2c1a033de64addd60bb5bb0b49cf43d4689cf9c2c1860148ec071b32b64736f6c63430005110032';
const NONE_0_8_28 = 'a164736f6c634300081c000a';

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');

describe('auxdata decoding', () => {
  it('reads the content hash and compiler version of each era', () => {
    expect(decodeAuxdata(IPFS_0_8_28)).toEqual({
      ipfs: '1220781d6a314bd5c511e0e1719e6f6847194e0ca6831ea721548cec3271f37e12e5',
      solc: '0.8.28',
    });
    expect(decodeAuxdata(BZZR0_0_4_26)).toEqual({ bzzr0: 'b4faf8aad1780e69a8275ff2c77d36124f6152f58e661f3822a24126761612fd' });
    expect(decodeAuxdata(BZZR1_0_5_17)).toEqual({
      bzzr1: '1d8421a2c1a033de64addd60bb5bb0b49cf43d4689cf9c2c1860148ec071b32b',
      solc: '0.5.17',
    });
    expect(decodeAuxdata(NONE_0_8_28)).toEqual({ solc: '0.8.28' });
    expect(hasContentHash(decodeAuxdata(NONE_0_8_28))).toBe(false);
    expect(hasContentHash(decodeAuxdata(BZZR0_0_4_26))).toBe(true);
  });

  it('reads the experimental flag and prerelease version strings', () => {
    const map = `a2${'6c'}${hex('experimental')}f5${'64'}${hex('solc')}${'6e'}${hex('0.8.29-develop')}`;
    const aux = map + (map.length / 2).toString(16).padStart(4, '0');
    expect(decodeAuxdata(aux)).toEqual({ experimental: true, solc: '0.8.29-develop' });
  });

  it('refuses bytes that are not exactly one CBOR map of the declared length', () => {
    expect(tryDecodeAuxdata(`${IPFS_0_8_28.slice(0, -4)}0034`)).toBeNull();
    expect(tryDecodeAuxdata(`${IPFS_0_8_28.slice(0, -4)}000034`)).toBeNull();
    expect(tryDecodeAuxdata('8301020300' + '04')).toBeNull();
    expect(tryDecodeAuxdata('6161' + '0002')).toBeNull(); // a text string, not a map
    expect(tryDecodeAuxdata('bf' + 'ff' + '0002')).toBeNull(); // indefinite length
    expect(tryDecodeAuxdata('zz')).toBeNull();
  });

  it('accepts only the maps solc writes: its keys, its value sizes, one content hash, at most 128 bytes', () => {
    const aux = (map: string) => map + (map.length / 2).toString(16).padStart(4, '0');
    const solcKey = `64${hex('solc')}4300081c`;
    expect(tryDecodeAuxdata(aux(`a1${solcKey}`))).toEqual({ solc: '0.8.28' });
    // Another key, however small.
    expect(tryDecodeAuxdata(aux(`a2${solcKey}61${hex('x')}4100`))).toBeNull();
    // An ipfs value that is not a sha2-256 multihash.
    expect(tryDecodeAuxdata(aux(`a1${'64'}${hex('ipfs')}5822${'1320'}${'00'.repeat(32)}`))).toBeNull();
    // Two content hashes.
    expect(tryDecodeAuxdata(aux(`a2${'65'}${hex('bzzr0')}5820${'11'.repeat(32)}${'65'}${hex('bzzr1')}5820${'22'.repeat(32)}`))).toBeNull();
    // A version string longer than any solc writes.
    expect(tryDecodeAuxdata(aux(`a1${'64'}${hex('solc')}7841${'61'.repeat(65)}`))).toBeNull();
    // Kilobytes in a map of solc's keys.
    expect(tryDecodeAuxdata(aux(`a1${'64'}${hex('solc')}590800${'61'.repeat(2048)}`))).toBeNull();
  });

  it('finds the auxdata at the end of a code through its length suffix', () => {
    const code = `6080604052fe${IPFS_0_8_28}`;
    expect(tailAuxdata(code)?.position).toEqual({ id: '1', offset: 6, length: 53, value: IPFS_0_8_28 });
    expect(tailAuxdata('6080604052fe')).toBeNull();
  });

  it('names the metadata location like Etherscan', () => {
    expect(swarmSourceOf(decodeAuxdata(IPFS_0_8_28))).toMatch(/^ipfs:\/\/Qm[1-9A-HJ-NP-Za-km-z]{44}$/);
    expect(swarmSourceOf(decodeAuxdata(BZZR0_0_4_26))).toBe('bzzr://b4faf8aad1780e69a8275ff2c77d36124f6152f58e661f3822a24126761612fd');
    expect(swarmSourceOf(decodeAuxdata(NONE_0_8_28))).toBe('');
  });

  it('encodes base58 like bitcoin and IPFS do', () => {
    expect(base58.encode(new TextEncoder().encode('Hello World!'))).toBe('2NEpo7TZRRrLZSi2U');
    expect(base58.encode(Uint8Array.from([0, 0, 1]))).toBe('112');
    expect(base58.encode(new Uint8Array())).toBe('');
  });
});

describe('auxdata positions', () => {
  it('lists .auxdata values through nested .data in order', () => {
    const assembly = { '.code': [], '.data': { '0': { '.auxdata': 'AA0001', '.data': { '0': { '.data': { '0': { '.auxdata': 'bb0001' } } } } } } };
    expect(auxdataValuesFromLegacyAssembly(assembly)).toEqual(['aa0001', 'bb0001']);
    expect(auxdataValuesFromLegacyAssembly(undefined)).toBeNull();
  });

  it('locates only auxdata whose hash changes with the sources, not a planted copy', () => {
    const other = IPFS_0_8_28.replace('781d6a31', '99999999');
    // The contract embeds a copy of its own auxdata as a constant before the real one.
    const original = `60806040${IPFS_0_8_28}5b5b${IPFS_0_8_28}`;
    const edited = `60806040${IPFS_0_8_28}5b5b${other}`;
    expect(findAuxdataPositions(original, edited, [IPFS_0_8_28], [other])).toEqual([{ id: '1', offset: 4 + 53 + 2, length: 53, value: IPFS_0_8_28 }]);
  });

  it('locates several identical auxdata, one per changed range', () => {
    const other = IPFS_0_8_28.replace('781d6a31', '99999999');
    const original = `6080${IPFS_0_8_28}00${IPFS_0_8_28}`;
    const edited = `6080${other}00${other}`;
    expect(findAuxdataPositions(original, edited, [IPFS_0_8_28, IPFS_0_8_28], [other, other]).map((p) => p.offset)).toEqual([2, 56]);
  });
});
