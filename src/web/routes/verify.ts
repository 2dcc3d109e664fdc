import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isVyperDiagnosis } from '../../core/diagnosis.js';
import { knownAddress, parseAddress } from '../../core/hex.js';
import { isReceipt } from '../../core/receipt.js';
import { isVyperSubmission } from '../../core/types.js';
import { clientKey } from '../../limits/clientAddress.js';
import { accessRefusalText, submitRefusalText } from '../../texts/index.js';
import { deployedCompiler, findSubmission, parseSourceSubmission, type SubmissionFields, submitSource } from '../../useCases/index.js';
import type { WebContext } from '../context.js';
import { CallError } from '../contractCalls.js';
import { messagePage } from '../pages/messagePage.js';
import { verifyPage } from '../pages/verifyPage.js';
import { contractMatchingCode } from '../pickContract.js';
import { resubmissionValues } from '../resubmit.js';
import { emptyFormValues, fieldOfApiError, readVerifyForm, type VerifyFormValues } from '../verifyForm.js';
import { readVerifyFormBody, VerifyFormBody } from '../verifyFormBody.js';
import { compilerChoices } from './compilers.js';
import { sendPage, tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Verify & Publish form posts per client and second (each may carry megabytes of sources). */
const VERIFY_FORMS_PER_SECOND = 2;

/**
 * Verify & Publish (`/verify`): the form, and its plain multipart POST (files keep their names),
 * read as it arrives: the key is checked when it comes (first, on the page), before the sources.
 * The form is submitted through the same use case as /api's verifysourcecode; a receipt leads to
 * the receipt page.
 */
export function verifyRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  web.addContentTypeParser('multipart/form-data', { bodyLimit: ctx.config.bodyLimit }, async (request: FastifyRequest, payload: Readable) => {
    try {
      return await readVerifyFormBody(payload, {
        contentType: request.headers['content-type'] ?? '',
        bodyLimit: ctx.config.bodyLimit,
        checkApiKey: async (apiKey) => {
          const checked = await ctx.access.checkKey(apiKey, request.ip);
          return 'key' in checked ? null : accessRefusalText(checked.refusal);
        },
      });
    } catch (error) {
      // The client went away mid-form; anything else (the key lookup failing) is the service's fault.
      if ((error as { code?: string }).code === 'ECONNRESET') throw new CallError(400, 'The form could not be read');
      throw error;
    }
  });

  web.get('/verify', async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const raw = query.address;
    const address = (typeof raw === 'string' && parseAddress(raw.trim())) || '';
    // `?from=<receipt>`: a failed submission again, with the change its diagnosis found.
    const from = typeof query.from === 'string' && isReceipt(query.from) ? await resubmission(ctx, query.from) : null;
    const values = from ?? emptyFormValues(address);
    // The compiler the deployed metadata names, to start from.
    if (!from && address) values.compiler = (await deployedCompiler(ctx, knownAddress(address))) ?? values.compiler;
    return sendPage(
      reply,
      verifyPage({
        chainId: ctx.chainId,
        values,
        compilers: await compilerChoices(ctx),
        contracts: [],
        errors: {},
        ...(from ? { notice: 'Filled in from your failed verification, with the change its diagnosis found. Enter your API key and send it again.' } : {}),
      }),
    );
  });

  web.post(
    '/verify',
    {
      bodyLimit: ctx.config.bodyLimit,
      // Counted before the body is read: a client cannot make the service read megabytes at will.
      onRequest: async (request, reply) => {
        const wait = await runtime.limits.takeTokenOrWait('web-verify', clientKey(request.ip), VERIFY_FORMS_PER_SECOND);
        if (wait > 0) return tooMany(ctx, request, reply, `At most ${VERIFY_FORMS_PER_SECOND} verification forms per second; please slow down.`, wait);
        return undefined;
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (!(body instanceof VerifyFormBody)) {
        return sendPage(
          reply,
          messagePage({ chainId: ctx.chainId, title: 'Bad request', message: 'The form must be sent as multipart/form-data (the page does this).' }),
          400,
        );
      }
      let read = readVerifyForm(body.entries);
      // A build-info file with several contracts and no name chosen: the one whose code is at the address.
      if (
        !read.ok &&
        read.errors.contractName &&
        !read.values.contractName &&
        read.values.format === 'json' &&
        read.contracts.length > 1 &&
        !read.errors.address
      ) {
        const picked = await contractAtAddress(ctx, read.values.standardJson, read.values.address);
        if (picked) read = readVerifyForm([...body.entries.filter((e) => e.name !== 'contractname'), { name: 'contractname', value: picked }]);
      }
      const again = async (errors: Parameters<typeof verifyPage>[0]['errors'], status: number) =>
        sendPage(
          reply,
          verifyPage({
            chainId: ctx.chainId,
            values: read.values,
            compilers: await compilerChoices(ctx),
            contracts: read.contracts,
            errors,
            sourceLicense: read.sourceLicense,
          }),
          status,
        );
      if (body.refusal) return again({ [body.refusal.field]: body.refusal.message }, body.refusal.status);
      if (!read.ok || body.keyRefusal) return again({ ...(read.ok ? {} : read.errors), ...(body.keyRefusal ? { apiKey: body.keyRefusal } : {}) }, 400);
      const refused = (message: string) => again({ [fieldOfApiError(message, read.values.format)]: message }, 400);
      // The key was checked as the form arrived; the submission is allowed as /api allows one (its rate, a revocation meanwhile).
      const access = await ctx.access.decide(read.params['apikey'] ?? '', request.ip, 'submit');
      if (!access.allowed || !access.key) return refused(accessRefusalText(access.allowed ? 'invalid_key' : access.refusal));
      const parsed = parseSourceSubmission(formFields(read.params), ctx.releases);
      if (!parsed.ok) return refused(parsed.error);
      const submitted = await submitSource(ctx, { key: access.key }, parsed.value);
      if (!submitted.ok) return refused(submitRefusalText(submitted.refusal));
      return reply.redirect(`/receipt/${submitted.receipt}`, 303);
    },
  );
}

/** The form's values to resubmit a failed source verification with its diagnosis' fix; null when there is none to apply. */
async function resubmission(ctx: WebContext, receipt: string): Promise<VerifyFormValues | null> {
  const job = await findSubmission(ctx, receipt);
  if (job?.request?.kind !== 'source' || job.result?.outcome !== 'failure') return null;
  const diagnosis = job.result.document.diagnosis;
  if (!diagnosis?.fix || isVyperDiagnosis(diagnosis) || isVyperSubmission(job.request.submission)) return null;
  return resubmissionValues(job.request.submission, diagnosis.fix.changes, diagnosis.facts.sent.runs);
}

/** The contract of a build-info file whose runtime code is the code at `address`, when exactly one is; null otherwise. */
async function contractAtAddress(ctx: WebContext, jsonText: string, address: string): Promise<string | null> {
  let output: unknown;
  try {
    output = (JSON.parse(jsonText) as { output?: unknown }).output;
  } catch {
    return null;
  }
  const at = parseAddress(address);
  if (!output || !at) return null;
  try {
    return contractMatchingCode(output, await ctx.chain.getCode(at));
  } catch {
    // The node could not be asked: the form asks the user instead.
    return null;
  }
}

/** The form's fields as a request carries verifysourcecode's (names matched case-insensitively). */
function formFields(params: Record<string, string>): SubmissionFields {
  const values = new Map(Object.entries(params).map(([name, value]) => [name.toLowerCase(), value]));
  return {
    get: (name) => values.get(name.toLowerCase()),
    text: (name) => (values.get(name.toLowerCase()) ?? '').trim(),
    has: (name) => values.has(name.toLowerCase()),
  };
}
