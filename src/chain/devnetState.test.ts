import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepOwnGenesis, withOwnGenesisOnly } from './devnetState.js';

const block = (number: number, timestamp: number, tag: string) =>
  `{"header":{"parentHash":"0x${tag}","number":"0x${number.toString(16)}","timestamp":"0x${timestamp.toString(16)}","extraData":"0x\\"]}"},"transactions":[],"ommers":[]}`;

/** A state file as anvil writes it: blocks in no order, numbers too large for a JavaScript number. */
const stateFile = (blocks: string[]) =>
  `{"block":{"number":"0x2","gas_limit":30000000,"blob_excess_gas_and_price":{"excess_blob_gas":0,"blob_gasprice":340282366920938463463374607431768211455}},` +
  `"accounts":{"0xf39f":{"nonce":2,"balance":"0x21e19e0c9bab2400000","code":"0x","storage":{}}},"best_block_number":2,` +
  `"blocks":[${blocks.join(',')}],"transactions":[],"historical_states":null}`;

describe("the devnet's state file keeps the chain's own genesis only", () => {
  it('drops the block 0 entries of later starts, keeps the earliest, and leaves every other byte as written', () => {
    const own = block(0, 1000, 'own');
    const later = [block(0, 1500, 'second-start'), block(0, 1200, 'first-restart')];
    const rest = [block(1, 1001, 'one'), block(2, 1300, 'two')];
    const text = stateFile([rest[1]!, later[0]!, own, rest[0]!, later[1]!]);
    const repaired = withOwnGenesisOnly(text);
    expect(repaired.dropped).toBe(2);
    expect(repaired.text).toBe(stateFile([rest[1]!, own, rest[0]!]));
    // The number past 2^53 is the same text, not a rounded one.
    expect(repaired.text).toContain('"blob_gasprice":340282366920938463463374607431768211455}');
    expect(withOwnGenesisOnly(repaired.text)).toEqual({ text: repaired.text, dropped: 0 });
  });

  it('leaves a file with one block 0, whitespace and all, as it is', () => {
    const text = `{ "block" : {"number":"0x1"},\n  "blocks" : [ ${block(0, 5, 'a')} ,\n ${block(1, 6, 'b')} ] }`;
    expect(withOwnGenesisOnly(text)).toEqual({ text, dropped: 0 });
    expect(withOwnGenesisOnly('{"blocks":[]}')).toEqual({ text: '{"blocks":[]}', dropped: 0 });
  });

  it('rewrites the file on disk, and leaves a missing or unreadable one to anvil', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'solproof-devnet-state-'));
    const path = join(dir, 'devnet-state.json');
    expect(await keepOwnGenesis(path)).toBe(0);
    writeFileSync(path, stateFile([block(0, 9, 'later'), block(0, 3, 'own'), block(1, 4, 'one')]));
    expect(await keepOwnGenesis(path)).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(stateFile([block(0, 3, 'own'), block(1, 4, 'one')]));
    writeFileSync(path, '{"blocks":[{"header":');
    expect(await keepOwnGenesis(path)).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('{"blocks":[{"header":');
  });
});
