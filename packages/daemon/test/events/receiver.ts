import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
}

/** What the receiver answers to the n-th request (0-based): a status, or 'hang' (never answers). */
export type Answer = number | 'hang';

/** A loopback webhook receiver that records every request and answers as told. */
export async function startReceiver(answers: (n: number) => Answer = () => 200) {
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const n = received.length;
      received.push({ headers: req.headers as Record<string, string>, body });
      for (const w of waiters.splice(0)) w();
      const answer = answers(n);
      if (answer === 'hang') hanging.push(res);
      else res.writeHead(answer).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    /** Resolves once at least `n` requests arrived. */
    async waitFor(n: number): Promise<void> {
      while (received.length < n) await new Promise<void>((r) => waiters.push(r));
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
