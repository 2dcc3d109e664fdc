import { receiptStatusText } from '../texts/index.js';
import type { JobStatus } from '../useCases/index.js';
import { diagnosisReasonCode } from '../verify/index.js';

/** What `/receipt/<guid>.json` answers: a receipt's state, verdict and diagnosis, for tools. */
export interface ReceiptDocument {
  receipt: string;
  /** `source`, `proxy` or `build`. */
  kind: string;
  address: string;
  /** `pending`, `pass`, `fail` or `already_verified`. */
  state: string;
  /** What checkverifystatus answers a client that reads reasons. */
  status: string;
  /**
   * A stable code per failure family (`wrong_optimizer`, `wrong_runs`, `wrong_compiler_version`,
   * `wrong_evm_version`, `wrong_via_ir`, `wrong_metadata_settings`, `wrong_contract_name`,
   * `wrong_constructor_arguments`, `wrong_library_address`, `contract_not_in_sources`,
   * `bytecode_mismatch`, or the error's own code); null unless the receipt failed.
   */
  reasonCode: string | null;
  /** The verdict's details (match kinds) of a pass, the failure's of a failure. */
  result: unknown;
  /** The diagnosis of a failed source verification (facts, the fix found, the code comparison), or null. */
  diagnosis: unknown;
  createdAt: string;
  finishedAt: string | null;
}

export function receiptDocument(job: JobStatus): ReceiptDocument {
  const pending = job.state === 'queued' || job.state === 'running';
  const failure = job.result?.outcome === 'failure' ? job.result.document : null;
  const status = receiptStatusText(job);
  const reasonCode =
    job.state !== 'fail'
      ? null
      : failure
        ? (failure.reasonCode ?? (failure.diagnosis ? diagnosisReasonCode(failure.diagnosis) : failure.code))
        : job.result?.outcome === 'unfinished'
          ? job.result.document.error.code
          : 'failed';
  // The diagnosis is a field of its own; the result is the document the job kept.
  const { diagnosis = null, ...rest } = failure ?? {};
  return {
    receipt: job.receipt,
    kind: job.kind,
    address: job.address,
    state: pending ? 'pending' : job.state,
    status,
    reasonCode,
    result: failure ? rest : (job.result?.document ?? null),
    diagnosis,
    createdAt: new Date(Number(job.createdAt)).toISOString(),
    finishedAt: job.finishedAt ? new Date(Number(job.finishedAt)).toISOString() : null,
  };
}
