import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseAddress } from '../../core/hex.js';
import type { Address } from '../../core/types.js';
import { clientKey } from '../../limits/clientAddress.js';
import { abiForCalls } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { abiFunctions, CallError, encodeCall, findFunction, parseWei, readFunction } from '../contractCalls.js';
import { tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Read/encode requests are small JSON documents. */
export const CALL_BODY_LIMIT = 64 * 1024;

interface CallBody {
  function?: unknown;
  index?: unknown;
  args?: unknown;
  asProxy?: unknown;
  value?: unknown;
}

/**
 * The contract page's Read and Write tabs: `POST /address/<address>/read` calls a view function
 * on the node, `/encode` builds the transaction the wallet sends; JSON in and out.
 */
export function callsRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  // Per client and second: contract calls may ask the node.
  const CALLS_PER_SECOND = ctx.config.webRate;

  /** The ABI a call uses: the contract's own, or with asProxy its implementation's. */
  const abiFor = async (request: FastifyRequest): Promise<{ address: Address; abi: string; body: CallBody }> => {
    const address = parseAddress((request.params as { address: string }).address);
    if (!address) throw new CallError(400, 'Not an address: 0x followed by 40 hex digits');
    const body = (request.body && typeof request.body === 'object' ? request.body : {}) as CallBody;
    const found = await abiForCalls(ctx, address, body.asProxy === true || body.asProxy === 'true');
    if (found.ok) return { address, abi: found.abi, body };
    switch (found.refusal.code) {
      case 'no_proxy':
        throw new CallError(404, 'No proxy is recorded for this address (verifyproxycontract first)');
      case 'implementation_not_verified':
        throw new CallError(409, `The implementation ${found.refusal.implementation} is not verified`);
      case 'not_verified':
        throw new CallError(404, 'This contract is not verified');
    }
  };

  web.post('/address/:address/read', { bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
    const wait = await runtime.limits.takeTokenOrWait('web-call', clientKey(request.ip), CALLS_PER_SECOND);
    if (wait > 0) return tooMany(ctx, request, reply, `At most ${CALLS_PER_SECOND} contract calls per second; please slow down.`, wait);
    const { address, abi, body } = await abiFor(request);
    const fn = findFunction(abiFunctions(abi), body.function, body.index);
    const result = await readFunction(ctx.chain, address, fn, body.args);
    return reply.header('content-type', 'application/json; charset=utf-8').send(result);
  });

  web.post('/address/:address/encode', { bodyLimit: CALL_BODY_LIMIT }, async (request, reply) => {
    const wait = await runtime.limits.takeTokenOrWait('web-call', clientKey(request.ip), CALLS_PER_SECOND);
    if (wait > 0) return tooMany(ctx, request, reply, `At most ${CALLS_PER_SECOND} contract calls per second; please slow down.`, wait);
    const { address, abi, body } = await abiFor(request);
    const fn = findFunction(abiFunctions(abi), body.function, body.index);
    const data = encodeCall(fn, body.args);
    const value = parseWei(body.value);
    if (value > 0n && !fn.payable) throw new CallError(400, `${fn.signature} is not payable: send no value`);
    return reply.header('content-type', 'application/json; charset=utf-8').send({
      function: fn.signature,
      to: address,
      data,
      value: `0x${value.toString(16)}`,
      valueWei: value.toString(),
    });
  });
}
