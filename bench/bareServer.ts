/**
 * The read bench's baseline, run in a child process of its own (`fork`): a bare `node:http`
 * server per answer, each sending its answer's bytes as a constant for every request. The
 * parent sends `{ answers }` and receives `{ ports }` in the same order.
 */
import { createServer, type Server } from 'node:http';

export interface BareAnswer {
  body: string;
  contentType: string;
}

async function listen(answer: BareAnswer): Promise<{ server: Server; port: number }> {
  const body = Buffer.from(answer.body, 'utf8');
  const headers = { 'content-type': answer.contentType, 'content-length': String(body.length) };
  const server = createServer((_req, res) => {
    res.writeHead(200, headers);
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return { server, port: address.port };
}

if (process.send) {
  process.once('message', (message: { answers: BareAnswer[] }) => {
    Promise.all(message.answers.map(listen)).then(
      (servers) => process.send!({ ports: servers.map((s) => s.port) }),
      (error: unknown) => process.send!({ error: String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}
