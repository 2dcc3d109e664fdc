import { describe, expect, it } from 'vitest';
import { oneAtATime } from './oneAtATime.js';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('oneAtATime', () => {
  it('runs tasks of one key in turn and tasks of other keys side by side; a failure does not stop the next', async () => {
    const run = oneAtATime();
    const log: string[] = [];
    const task =
      (name: string, fail = false) =>
      async () => {
        log.push(`${name} start`);
        await tick();
        log.push(`${name} end`);
        if (fail) throw new Error(name);
        return name;
      };
    const results = await Promise.allSettled([run('a', task('a1', true)), run('a', task('a2')), run('b', task('b1'))]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });
});
