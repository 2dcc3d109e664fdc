import type { StoreChanges } from '../store/storeChanges.js';
import type { CompilesAhead, QueuedSource } from './earlyCompile.js';
import type { JobRunner } from './queue.js';

export interface JobWaker {
  /**
   * Tells the runners a job was queued: this process's own at once and, through the store
   * (PostgreSQL NOTIFY), every worker's. Given the source submission just queued, this process
   * starts compiling it when its own runner will take it.
   */
  wake(queued?: QueuedSource): void;
  /** Stops listening for other processes' jobs. */
  stop(): void;
}

/** Wakes `runner` (null on an API node, which runs no jobs) for jobs queued here or in any process sharing the store. */
export function createJobWaker(parts: { runner: JobRunner | null; ahead?: CompilesAhead | undefined; changes: StoreChanges }): JobWaker {
  const { runner, ahead, changes } = parts;
  const stopListening = runner ? changes.onJobQueued(() => runner.wake()) : () => {};
  return {
    wake(queued) {
      if (queued) ahead?.start(queued);
      runner?.wake();
      void changes.announceJobQueued();
    },
    stop: stopListening,
  };
}
