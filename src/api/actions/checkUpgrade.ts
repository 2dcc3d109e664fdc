import { parseAddress } from '../../core/hex.js';
import type { Address } from '../../core/types.js';
import { incompatibilityText, TEXT, upgradeRefusalText } from '../../texts/index.js';
import { checkUpgrade as check, readUnpublishedCandidate, type Services, type UnpublishedCandidate, type UpgradeCheck } from '../../useCases/index.js';
import type { Caller } from '../context.js';
import { type Envelope, fail, ok } from '../envelope.js';
import type { Params } from '../params.js';

/**
 * `checkupgrade`: whether `implementation` (a verified contract), or the contract `contractname`
 * of the standard JSON input `sourceCode` compiled with `compilerversion` (not published; a key
 * is needed), may replace the implementation the proxy at `proxy` (or `address`) delegates to
 * now, or with `against` an earlier implementation of its history, by OpenZeppelin's storage
 * layout rules; with the ABI and source differences and the proxy's implementation history.
 */
export async function checkUpgrade(s: Services, params: Params, caller: Caller): Promise<Envelope> {
  const proxyName = params.text('proxy') ? 'proxy' : 'address';
  const givenProxy = params.text(proxyName);
  if (!givenProxy) return fail(TEXT.missingParameter('proxy'));
  const proxy = parseAddress(givenProxy);
  if (!proxy) return fail(TEXT.invalidAddressIn(proxyName, givenProxy));
  let candidate: Address | UnpublishedCandidate;
  if (params.text('sourcecode')) {
    // An unpublished candidate costs a compile of the caller's input: a key's, never keyless.
    if (!caller.key) return fail(TEXT.upgradeInputNeedsKey);
    const read = readUnpublishedCandidate(s, {
      sourceCode: params.text('sourcecode'),
      contractName: params.text('contractname'),
      compilerVersion: params.text('compilerversion'),
    });
    if (!read.ok) return fail(read.text);
    candidate = read.candidate;
  } else {
    const givenCandidate = params.text('implementation');
    if (!givenCandidate) return fail(TEXT.missingParameter('implementation'));
    const address = parseAddress(givenCandidate);
    if (!address) return fail(TEXT.invalidAddressIn('implementation', givenCandidate));
    candidate = address;
  }
  let against: Address | undefined;
  const givenAgainst = params.text('against');
  if (givenAgainst) {
    const address = parseAddress(givenAgainst);
    if (!address) return fail(TEXT.invalidAddressIn('against', givenAgainst));
    against = address;
  }
  const answer = await check(s, proxy, candidate, against);
  if (!answer.ok) return fail(upgradeRefusalText(answer.refusal));
  return ok(upgradeCheckResult(answer.check), caller.okMessage);
}

/** The check as the API answers it (the page's JSON is the same). */
export function upgradeCheckResult(c: UpgradeCheck): Record<string, unknown> {
  return {
    compatible: c.compatible,
    errors: c.incompatibilities.map((i) => ({
      kind: i.kind,
      variable: i.variable,
      text: incompatibilityText(i),
      ...(i.before ? { before: i.before } : {}),
      ...(i.original ? { original: i.original } : {}),
      ...(i.namespace ? { namespace: i.namespace } : {}),
      location: i.where,
      explanation: i.explanation,
    })),
    proxy: c.proxy,
    proxyType: c.pattern,
    beacon: c.beacon,
    blockNumber: c.blockNumber.toString(),
    currentImplementation: c.currentImplementation,
    against: c.against,
    candidate: c.candidate,
    namespaces: c.namespaces,
    abiDiff: c.abiDiff,
    sourceDiff: c.sourceDiff,
    history: c.history,
  };
}
