import { describe, expect, it } from 'vitest';
import { FairSlots, type Slot, type SlotAnswer } from './fairSlots.js';

const slotOf = (answer: SlotAnswer): Slot => {
  if (!('slot' in answer)) throw new Error(`refused, wait ${answer.waitMs} ms`);
  return answer.slot;
};

describe('FairSlots', () => {
  it('a client holds at most its share; refused, it waits until its oldest slot has been held its longest', () => {
    const slots = new FairSlots(100, 3, 60_000);
    const held = [0, 1, 2].map((i) => slotOf(slots.open('a', () => {}, 1000 + i)));
    expect(slots.open('a', () => {}, 5000)).toEqual({ waitMs: 56_000 });
    expect(slotOf(slots.open('b', () => {}, 5000)).client).toBe('b');
    held[1]!.release();
    held[1]!.release();
    expect(slots.count('a')).toBe(2);
    expect(slots.count()).toBe(3);
    slotOf(slots.open('a', () => {}, 6000));
  });

  it('when all are taken, a newcomer takes the oldest slot of the client holding the most, which is told to end', () => {
    const slots = new FairSlots(10, 8, 60_000);
    const ended: string[] = [];
    for (let i = 0; i < 8; i++) slotOf(slots.open('attacker-1', () => ended.push(`1.${i}`), i));
    for (let i = 0; i < 2; i++) slotOf(slots.open('attacker-2', () => ended.push(`2.${i}`), 10 + i));
    expect(slots.count()).toBe(10);
    // The newcomer gets a slot; attacker-1's oldest ends.
    slotOf(slots.open('visitor', () => ended.push('visitor'), 100));
    expect(ended).toEqual(['1.0']);
    expect([slots.count('attacker-1'), slots.count('attacker-2'), slots.count('visitor'), slots.count()]).toEqual([7, 2, 1, 10]);
    // Taking a slot from a client holding only one more is no fairer: refused, waiting for the oldest slot of all (attacker-1's, opened at 6).
    for (let i = 0; i < 5; i++) slotOf(slots.open(`visitor-${i}`, () => {}, 200));
    expect([slots.count('attacker-1'), slots.count('attacker-2')]).toEqual([2, 2]);
    expect(slots.open('visitor', () => {}, 300)).toEqual({ waitMs: 60_000 - 300 + 6 });
    expect(slots.open('attacker-1', () => {}, 300)).toEqual({ waitMs: 60_000 - 300 + 6 });
    expect(ended).toEqual(['1.0', '1.1', '1.2', '1.3', '1.4', '1.5']);
  });

  it('an ended slot released again by its holder frees nothing twice', () => {
    const slots = new FairSlots(2, 2, 1000);
    const first = slotOf(slots.open('a', () => first.release(), 0));
    slotOf(slots.open('a', () => {}, 1));
    slotOf(slots.open('b', () => {}, 2));
    first.release();
    expect([slots.count('a'), slots.count('b'), slots.count()]).toEqual([1, 1, 2]);
  });
});
