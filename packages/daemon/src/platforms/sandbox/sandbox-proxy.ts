import { Hono, type Context } from 'hono';

type NodeEnv = { incoming?: { socket?: { destroy(): void } } };

/** Hop-by-hop and length headers that do not go through as they came. */
const DROPPED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'host', 'content-length', 'content-encoding', 'proxy-connection', 'te', 'trailer']);

/**
 * The daemon's `/sandbox/<host>/...` paths while the simulators run in their own process:
 * each call is passed on, body streamed, to the same path at `target()` (the process's
 * loopback URL), and its answer streamed back. A call the process never answers or whose
 * connection is reset (a fault, or the process restarting) loses its connection here too,
 * so a client through the daemon meets the same fault as one at the simulator's origin.
 */
export function sandboxProxy(target: () => string): Hono {
  return new Hono().all('*', async (c) => {
    const incoming = new URL(c.req.url);
    const headers = new Headers();
    c.req.raw.headers.forEach((v, k) => {
      if (!DROPPED.has(k)) headers.set(k, v);
    });
    const hasBody = c.req.method !== 'GET' && c.req.method !== 'HEAD';
    try {
      const res = await fetch(`${target()}${incoming.pathname}${incoming.search}`, {
        method: c.req.method,
        headers,
        ...(hasBody ? { body: c.req.raw.body, duplex: 'half' } : {}),
        redirect: 'manual',
        signal: c.req.raw.signal,
      } as RequestInit);
      const out = new Headers();
      res.headers.forEach((v, k) => {
        if (!DROPPED.has(k)) out.append(k, v);
      });
      return new Response(res.body, { status: res.status, headers: out });
    } catch {
      return lost(c);
    }
  });
}

function lost(c: Context): Response {
  (c.env as NodeEnv | undefined)?.incoming?.socket?.destroy();
  return new Response(null, { status: 502 });
}
