import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAddress } from '../../core/hex.js';
import { clientKey } from '../../limits/clientAddress.js';
import { missingLayoutText } from '../../texts/index.js';
import {
  type MappingLookup,
  publishedFiles,
  publishedInput,
  readContract,
  readContractPage,
  readStorageLayouts,
  readStorageValues,
  type VerifiedContract,
} from '../../useCases/index.js';
import { MAX_LOOKUP_KEYS } from '../../verify/index.js';
import type { WebContext } from '../context.js';
import { contractPage } from '../pages/contractPage.js';
import { messagePage } from '../pages/messagePage.js';
import { prepareSources } from '../pages/sourceView.js';
import { baseUrlOf, notAnAddress, sendPage, tooMany } from './reply.js';
import type { WebRuntime } from './runtime.js';

/** Verification attempts listed on an address page, newest first. */
const RECENT_RECEIPTS = 10;

/**
 * `/address/<address>`: the contract page (sources, ABI, proxy, history; an unverified address
 * with a link to Verify & Publish), and a verified contract's downloads: one source file
 * (`/source/<n>`, 1-based in the page's order), its standard JSON input, or its storage layouts.
 */
export function addressRoutes(web: FastifyInstance, ctx: WebContext, runtime: WebRuntime): void {
  // Per client and second: address pages may ask the node.
  const ADDRESS_PAGES_PER_SECOND = ctx.config.webRate;

  web.get('/address/:address', async (request, reply) => {
    const wait = await runtime.limits.takeTokenOrWait('web-address', clientKey(request.ip), ADDRESS_PAGES_PER_SECOND);
    if (wait > 0) return tooMany(ctx, request, reply, `At most ${ADDRESS_PAGES_PER_SECOND} address pages per second; please slow down.`, wait);
    const given = (request.params as { address: string }).address;
    const address = parseAddress(given);
    if (!address) return notAnAddress(ctx, reply, given);
    const read = await readContractPage(ctx, address, RECENT_RECEIPTS);
    const { file: fileText, from: fromText } = request.query as Record<string, unknown>;
    const chosenFile = typeof fileText === 'string' && /^\d{1,5}$/.test(fileText) ? Number(fileText) : null;
    const from = typeof fromText === 'string' && /^\d{1,9}$/.test(fromText) ? Number(fromText) : null;
    const lookup = mappingLookup(request.query as Record<string, unknown>);
    // Found and highlighted a slice at a time: a large source gives way to other requests.
    // The storage is read while the sources are prepared; its reads give up after a time limit.
    const [sources, storageValues] = await Promise.all([
      read.contract ? prepareSources(publishedFiles(read.contract), chosenFile, from) : null,
      (read.contract && read.layouts) || (read.proxy && read.implementation)
        ? readStorageValues(
            ctx,
            address,
            read.contract && read.layouts ? { contract: read.contract, layouts: read.layouts } : null,
            {
              record: read.proxy,
              implementation: read.implementation,
            },
            { lookup },
          )
        : null,
    ]);
    return sendPage(
      reply,
      contractPage({
        ...read,
        address,
        chainId: ctx.chainId,
        baseUrl: baseUrlOf(ctx, request),
        rpcUrl: ctx.publicRpcUrl,
        chosenFile,
        sources,
        storageValues,
        lookup,
      }),
    );
  });

  // Downloads of a verified contract: one source file (1-based, in the page's order), or the standard JSON input.
  const verifiedFor = async (request: FastifyRequest, reply: FastifyReply): Promise<VerifiedContract | null> => {
    const wait = await runtime.limits.takeTokenOrWait('web-address', clientKey(request.ip), ADDRESS_PAGES_PER_SECOND);
    if (wait > 0) {
      void tooMany(ctx, request, reply, `At most ${ADDRESS_PAGES_PER_SECOND} address pages per second; please slow down.`, wait);
      return null;
    }
    const address = parseAddress((request.params as { address: string }).address);
    const contract = address ? await readContract(ctx, address) : null;
    if (!contract) void sendPage(reply, messagePage({ chainId: ctx.chainId, title: 'Not verified', message: 'No verified contract has this address.' }), 404);
    return contract;
  };
  web.get('/address/:address/source/:index', async (request, reply) => {
    const contract = await verifiedFor(request, reply);
    if (!contract) return reply;
    const files = publishedFiles(contract);
    const index = Number((request.params as { index: string }).index);
    const file = Number.isInteger(index) && index >= 1 ? files[index - 1] : undefined;
    if (!file)
      return sendPage(
        reply,
        messagePage({ chainId: ctx.chainId, title: 'No such file', message: `This contract has ${files.length} source file${files.length === 1 ? '' : 's'}.` }),
        404,
      );
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="${attachmentName(file.path.split('/').pop() ?? '')}"`)
      .send(file.content);
  });
  web.get('/address/:address/standard-input.json', async (request, reply) => {
    const contract = await verifiedFor(request, reply);
    if (!contract) return reply;
    const input = publishedInput(contract);
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${attachmentName(`${contract.contractName}-${contract.address}`)}.standard-input.json"`)
      .send(JSON.stringify(input, null, 2));
  });
  // solc's storage layouts as it gave them, and for a missing one why there is none.
  web.get('/address/:address/storage-layout.json', async (request, reply) => {
    const contract = await verifiedFor(request, reply);
    if (!contract) return reply;
    const layouts = await readStorageLayouts(ctx, contract);
    const notes: Record<string, string> = {};
    for (const [kind, { missing }] of Object.entries(layouts)) if (missing) notes[kind] = missingLayoutText(missing);
    const body = {
      address: contract.address,
      contractName: contract.contractName,
      fullyQualifiedName: `${contract.sourcePath}:${contract.contractName}`,
      compilerVersion: contract.compilerVersion,
      storageLayout: layouts.storageLayout.layout,
      transientStorageLayout: layouts.transientStorageLayout.layout,
      ...(Object.keys(notes).length > 0 ? { notes } : {}),
    };
    return reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="${attachmentName(`${contract.contractName}-${contract.address}`)}.storage-layout.json"`)
      .send(JSON.stringify(body, null, 2));
  });
}

function attachmentName(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 120) || 'source.sol';
}

/**
 * The Storage tab's mapping lookup: `?map=<the mapping's name>&key=<key>` (several keys, for a
 * mapping of mappings, separated by commas); bounded, and null when not asked.
 */
function mappingLookup(query: Record<string, unknown>): MappingLookup | null {
  const { map, key } = query;
  if (typeof map !== 'string' || typeof key !== 'string' || map.length === 0 || map.length > 200 || key.length > 1000) return null;
  const keys = key.split(',').map((k) => k.trim());
  return keys.length <= MAX_LOOKUP_KEYS && keys.every((k) => k.length > 0) ? { name: map, keys } : null;
}
