import { describe, expect, it } from 'vitest';
import { WorkGate } from './workGate.js';

describe('WorkGate', () => {
  it('lets a waiter go when its signal fires, while a verification still holds the gate', async () => {
    const gate = new WorkGate();
    let finish!: () => void;
    const held = gate.hold(() => new Promise<void>((resolve) => (finish = resolve)));
    const events: string[] = [];
    const controller = new AbortController();
    const waiting = gate.idle(60_000, controller.signal).then(() => events.push('waiter went on'));
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([]);
    events.push('signal');
    controller.abort();
    await waiting;
    expect(events).toEqual(['signal', 'waiter went on']);
    finish();
    await held;
    // A signal that has fired already does not wait at all.
    const again = gate.hold(() => new Promise<void>((resolve) => (finish = resolve)));
    await gate.idle(60_000, controller.signal);
    finish();
    await again;
  });

  it('wakes waiters when the last holder lets go', async () => {
    const gate = new WorkGate();
    let finish!: () => void;
    const held = gate.hold(() => new Promise<void>((resolve) => (finish = resolve)));
    const events: string[] = [];
    const waiting = gate.idle(60_000, new AbortController().signal).then(() => events.push('waiter went on'));
    events.push('released');
    finish();
    await held;
    await waiting;
    expect(events).toEqual(['released', 'waiter went on']);
  });
});
