import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './listen';

export interface Recorded {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
}

export type FakeHandler = (req: Recorded, res: ServerResponse, index: number) => void;

export interface FakeServer {
  /** Base URL (what `baseUrl` takes). */
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

/** A scripted stand-in for the daemon on 127.0.0.1: each request is recorded, then answered by `handler`. */
export async function startFakeServer(handler: FakeHandler): Promise<FakeServer> {
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const recorded: Recorded = {
        method: req.method ?? '',
        url: new URL(req.url ?? '/', 'http://fake'),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(recorded);
      handler(recorded, res, requests.length - 1);
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, requests, close };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export function errorBody(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { success: false, error: { code, message, ...extra } };
}

/** Whether a request is the SDK's GET /events (the event stream its waits follow). */
export const isEvents = (req: Recorded): boolean => req.url.pathname === '/api/agents/v1/events';

/**
 * A daemon without GET /events (one from before the event stream): /events answers 404, as
 * an unknown route does, and `handler` answers the rest, its `index` counting only those.
 * The SDK's waits then poll.
 */
export function withoutEvents(handler: FakeHandler): FakeHandler {
  let index = 0;
  return (req, res) => (isEvents(req) ? json(res, 404, errorBody('not_found', `no route for GET ${req.url.pathname}`)) : handler(req, res, index++));
}
