import type { ApiKeyRecord } from '../useCases/index.js';

/** Who is asking: the validated key (if any) and the client address. */
export interface Caller {
  key: ApiKeyRecord | null;
  client: string;
  /** The `message` of a successful read: `OK`, or Etherscan's keyless note for a read without a valid key. */
  okMessage: string;
  /**
   * The client shows the failure reason after `Fail - Unable to verify`: every client but
   * hardhat-verify 2, which compares the whole text (see readsFailureReasons).
   */
  readsReasons: boolean;
  /** The service's base URL as this caller reaches it (`--public-url`, else the request's host): receipts' pages are under it. */
  baseUrl?: string | undefined;
}
