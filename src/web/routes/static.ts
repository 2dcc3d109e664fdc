import type { FastifyInstance } from 'fastify';
import { faviconIco } from '../favicon.js';
import { readStaticAsset } from '../staticAssets.js';

/** `/static/explorer.css` and `/static/explorer.js`, read once at start, and `/favicon.ico`. */
export function staticRoutes(web: FastifyInstance): void {
  const css = readStaticAsset('explorer.css');
  const js = readStaticAsset('explorer.js');
  web.get('/static/explorer.css', async (_req, reply) =>
    reply.header('content-type', 'text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(css),
  );
  web.get('/static/explorer.js', async (_req, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(js),
  );
  const icon = faviconIco();
  web.get('/favicon.ico', async (_req, reply) => reply.header('content-type', 'image/x-icon').header('cache-control', 'public, max-age=86400').send(icon));
}
