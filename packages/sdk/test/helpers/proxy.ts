import { createServer, request, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';

export type ProxyAction = 'forward' | 'drop-response' | 'hold';

export interface ProxiedExchange {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The daemon's answer (absent while held). */
  response?: { status: number; headers: IncomingHttpHeaders; body: string };
}

export interface Proxy {
  url: string;
  exchanges: ProxiedExchange[];
  close(): Promise<void>;
}

/**
 * An HTTP proxy in front of the real daemon that can misbehave on purpose: `drop-response`
 * lets the daemon answer, then cuts the client's connection (the answer is lost on the way
 * back); `hold` never forwards and never answers.
 */
export async function startProxy(target: string, decide: (exchange: ProxiedExchange, index: number) => ProxyAction): Promise<Proxy> {
  const exchanges: ProxiedExchange[] = [];
  const held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const exchange: ProxiedExchange = { method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers };
      exchanges.push(exchange);
      const action = decide(exchange, exchanges.length - 1);
      if (action === 'hold') {
        held.push(res);
        return;
      }
      const upstream = request(new URL(exchange.path, target), { method: exchange.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (c: Buffer) => body.push(c));
        answer.on('end', () => {
          exchange.response = { status: answer.statusCode ?? 0, headers: answer.headers, body: Buffer.concat(body).toString('utf8') };
          if (action === 'drop-response') {
            req.socket.destroy();
            return;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(body));
        });
      });
      upstream.on('error', () => res.destroy());
      upstream.end(Buffer.concat(chunks));
    });
  });
  // Held answers are cut first, so their clients see the connection end.
  const { url, close } = await listenOnLoopback(server, () => {
    for (const res of held) res.destroy();
  });
  return { url, exchanges, close };
}
