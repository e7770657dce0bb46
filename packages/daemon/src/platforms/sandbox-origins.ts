import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { Hono } from 'hono';

/** Where each simulated host is reachable at an origin of its own: host -> `http://127.0.0.1:<port>`. */
export type SandboxEndpoints = Record<string, string>;

export interface SandboxOrigins {
  endpoints: SandboxEndpoints;
  close(): Promise<void>;
}

/**
 * Serves every simulated host at its own loopback origin, so a platform's own client
 * works by changing only its base URL (`twitter-api-v2` picks the body encoding from the
 * path, `googleapis` drops a path prefix from `rootUrl`: neither works under
 * `/sandbox/<host>`). A request to `http://127.0.0.1:<port>/2/tweets` is the sandbox app's
 * `/<host>/2/tweets`. Plain HTTP on 127.0.0.1 only, whatever the daemon's own transport.
 * `previous` (the ports of the last run) are taken again when free, else the system picks.
 */
export async function startSandboxOrigins(sandbox: Hono, hosts: readonly string[], previous: SandboxEndpoints = {}): Promise<SandboxOrigins> {
  const servers: ServerType[] = [];
  const endpoints: SandboxEndpoints = {};
  const close = () => Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => undefined);
  try {
    for (const host of hosts) {
      const fetch = (req: Request) => {
        const url = new URL(req.url);
        if (url.pathname !== `/${host}` && !url.pathname.startsWith(`/${host}/`)) url.pathname = `/${host}${url.pathname}`;
        return sandbox.fetch(new Request(url, req));
      };
      const wanted = Number(new URL(previous[host] ?? 'http://127.0.0.1:0').port) || 0;
      const server = (await listen(fetch, wanted).catch(() => (wanted ? listen(fetch, 0) : Promise.reject(new Error(`cannot serve ${host}`))))) as ServerType;
      servers.push(server);
      endpoints[host] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { endpoints, close };
}

async function listen(fetch: (req: Request) => Response | Promise<Response>, port: number): Promise<ServerType> {
  const server = serve({ fetch, hostname: '127.0.0.1', port });
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  } catch (e) {
    server.close();
    throw e;
  }
  return server;
}
