import type { JobKind } from '../store/verificationJobs.js';
import type { JobHandler } from './queue.js';

/** Which handler runs a job of each kind. */
export type JobHandlers = Record<JobKind, JobHandler>;

/** One handler for the runner: a job goes to the handler of its kind. */
export function dispatchByKind(handlers: JobHandlers): JobHandler {
  return (job, context) => handlers[job.kind](job, context);
}
