import { once } from 'node:events';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';

/** Where each simulated host is reachable at an origin of its own: host -> `http://127.0.0.1:<port>`. */
export type SandboxEndpoints = Record<string, string>;

export interface SandboxOrigins {
  endpoints: SandboxEndpoints;
  /** host -> `https://127.0.0.1:<port>`, when a certificate was given (sandbox-tls.ts); else empty. */
  httpsEndpoints: SandboxEndpoints;
  close(): Promise<void>;
}

export interface SandboxOriginsOptions {
  /** The ports of the last run (`previous`: plain HTTP, `previousHttps`: TLS), taken again when free. */
  previous?: SandboxEndpoints;
  previousHttps?: SandboxEndpoints;
  /** Also serve every host at an https origin of its own with this certificate (for https-only clients). */
  tls?: { cert: string; key: string };
}

/**
 * Serves every simulated host at its own loopback origin, so a platform's own client
 * works by changing only its base URL (`twitter-api-v2` picks the body encoding from the
 * path, `googleapis` drops a path prefix from `rootUrl`: neither works under
 * `/sandbox/<host>`). A request to `http://127.0.0.1:<port>/2/tweets` is the sandbox app's
 * `/<host>/2/tweets`. Plain HTTP on 127.0.0.1 only, whatever the daemon's own transport;
 * with `tls`, each host is also served over https at a second origin (`twitter-api-v2`
 * speaks only https). The ports of the last run are taken again when free, else the system picks.
 */
export async function startSandboxOrigins(sandbox: Hono, hosts: readonly string[], options: SandboxOriginsOptions = {}): Promise<SandboxOrigins> {
  const servers: ServerType[] = [];
  const endpoints: SandboxEndpoints = {};
  const httpsEndpoints: SandboxEndpoints = {};
  // Open connections too (a call a `timeout` fault holds would otherwise keep the close waiting).
  const close = () =>
    Promise.all(
      servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            (s as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      ),
    ).then(() => undefined);
  const serveAt = async (host: string, previous: string | undefined, tls: SandboxOriginsOptions['tls']): Promise<number> => {
    // The sandbox app's routes, matched as `/<host><path>`: the path is rewritten for routing
    // only (Hono's getPath), so the request itself is not copied (a copy made Node's request
    // into a web stream, on every call). The node-server env (the socket) goes along: the
    // fault stage resets and holds connections.
    const plainPath = new Hono().getPath;
    const { fetch } = new Hono({
      getPath: (req, opts) => {
        const path = plainPath(req, opts);
        return path === `/${host}` || path.startsWith(`/${host}/`) ? path : `/${host}${path}`;
      },
    }).route('/', sandbox);
    const wanted = Number(new URL(previous ?? 'http://127.0.0.1:0').port) || 0;
    const server = (await listenForSandbox(fetch, wanted, tls).catch(() => (wanted ? listenForSandbox(fetch, 0, tls) : Promise.reject(new Error(`cannot serve ${host}`))))) as ServerType;
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  try {
    for (const host of hosts) {
      endpoints[host] = `http://127.0.0.1:${await serveAt(host, options.previous?.[host], undefined)}`;
      if (options.tls) httpsEndpoints[host] = `https://127.0.0.1:${await serveAt(host, options.previousHttps?.[host], options.tls)}`;
    }
  } catch (e) {
    await close();
    throw e;
  }
  return { endpoints, httpsEndpoints, close };
}

/**
 * A burst opens hundreds of connections at once (the daemon's pool holds up to 256 to each
 * origin): an accept queue of Node's default 511 drops the rest (a reset, an unknown outcome
 * for a publishing call). The kernel caps it at net.core.somaxconn (4096 on current kernels).
 */
const SANDBOX_LISTEN_BACKLOG = 2048;

/** Serves `fetch` on 127.0.0.1 (a port of the system's choosing for 0) with the sandbox's accept queue. */
export async function listenForSandbox(fetch: (req: Request, env?: unknown) => Response | Promise<Response>, port: number, tls?: { cert: string; key: string }): Promise<ServerType> {
  const server = createAdaptorServer({ fetch, ...(tls ? { createServer: createHttpsServer, serverOptions: { cert: tls.cert, key: tls.key } } : {}) });
  server.listen({ port, host: '127.0.0.1', backlog: SANDBOX_LISTEN_BACKLOG });
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e as Error))]);
  } catch (e) {
    server.close();
    throw e;
  }
  return server;
}
