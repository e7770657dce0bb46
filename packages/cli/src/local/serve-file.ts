import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { basename } from 'node:path';
import type { AddressInfo } from 'node:net';

export interface ServedFile {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves one local file on a loopback port at an unguessable path, so the daemon can
 * prepare it through its one safe fetching path (sniffing, size cap, storage) instead of
 * the CLI writing into the daemon's media store behind its back. Only GET/HEAD of that
 * exact path answer; everything else is a 404.
 */
export async function serveFile(path: string): Promise<ServedFile> {
  const info = await stat(path);
  const token = randomBytes(18).toString('base64url');
  const name = encodeURIComponent(basename(path));
  const route = `/${token}/${name}`;
  const server = createServer((req, res) => {
    if (req.url !== route || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Length': info.size, 'Content-Type': 'application/octet-stream' });
    if (req.method === 'HEAD') return void res.end();
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${route}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
