/**
 * Lets background work (diagnoses) yield to verifications: a verification holds the gate
 * while it compiles and matches; background work waits, before each of its compiles, until no
 * verification holds it (at most `maxWaitMs`, so it cannot starve). Within one process.
 */
export class WorkGate {
  private holders = 0;
  private waiters: (() => void)[] = [];

  /** Runs `work` holding the gate. */
  async hold<T>(work: () => Promise<T>): Promise<T> {
    this.holders++;
    try {
      return await work();
    } finally {
      this.holders--;
      if (this.holders === 0) for (const wake of this.waiters.splice(0)) wake();
    }
  }

  /** Resolves when no verification holds the gate, after `maxWaitMs`, or when `signal` fires (the waiter has stopped waiting). */
  idle(maxWaitMs = 60_000, signal?: AbortSignal): Promise<void> {
    if (this.holders === 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, maxWaitMs);
      timer.unref?.();
      const waiters = this.waiters;
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        const at = waiters.indexOf(done);
        if (at !== -1) waiters.splice(at, 1);
        resolve();
      }
      waiters.push(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}
