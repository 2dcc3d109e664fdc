import type { StoreChanges } from '../store/storeChanges.js';
import type { CompilesAhead, QueuedSource } from './earlyCompile.js';
import type { JobRunner } from './queue.js';

export interface JobWaker {
  /**
   * Tells the runners a job was queued: this process's own and, through the store (PostgreSQL
   * NOTIFY), every worker's. Given the source submission just queued, this process first decides
   * whether to start compiling it (its own runner has room, the job's key is within its share),
   * then wakes them: the claims that follow see the compile.
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
      const wake = (): void => {
        runner?.wake();
        void changes.announceJobQueued();
      };
      if (queued && ahead) void ahead.start(queued).then(wake);
      else wake();
    },
    stop: stopListening,
  };
}
