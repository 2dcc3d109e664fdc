import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_OPTIONS } from '../core/config.js';

/** Where every option is described, once: docs/operating.md's Options table. */
const OPERATING = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'docs', 'operating.md'), 'utf8');

/** The Options table: each flag with the variable on its row (a row may name two, `--a` / `--b`). */
function optionsTable(): Map<string, string> {
  const section = OPERATING.slice(OPERATING.indexOf('## Options'));
  const rows = section.slice(0, section.indexOf('\n\n', section.indexOf('| flag |'))).split('\n');
  const table = new Map<string, string>();
  for (const row of rows) {
    const cells = row.split('|').map((c) => c.trim());
    const flags = [...(cells[1] ?? '').matchAll(/`--([a-z0-9-]+)`/g)].map((m) => m[1]!);
    const envs = [...(cells[2] ?? '').matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
    for (const [i, flag] of flags.entries()) table.set(flag, envs[i] ?? '');
  }
  return table;
}

describe('the options table of docs/operating.md and the options `--help` lists', () => {
  it('names every option with its variable, and nothing else', () => {
    const table = optionsTable();
    const options = new Map(CONFIG_OPTIONS.map((o) => [o.flag, o.env]));
    expect(
      [...table.keys()].filter((f) => !options.has(f)),
      'in docs/operating.md but not an option',
    ).toEqual([]);
    expect(
      [...options.keys()].filter((f) => !table.has(f)),
      'an option missing from docs/operating.md',
    ).toEqual([]);
    for (const [flag, env] of options) expect(table.get(flag), `--${flag}`).toBe(env);
  });

  it('gives every option a help text (what `--help` prints beside it)', () => {
    for (const o of CONFIG_OPTIONS) expect(o.help.length, `--${o.flag}`).toBeGreaterThan(10);
  });
});
