import type { MiddlewareHandler } from 'hono';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Against DNS rebinding: a browser page on another site that points its name at this
 * machine sends its own Origin. A request with an Origin is allowed only from a loopback
 * origin (any port) or the daemon's public URL; clients that are not browsers send none.
 */
export function originCheck({ publicUrl }: { publicUrl: string | null }): MiddlewareHandler {
  const publicOrigin = publicUrl ? new URL(publicUrl).origin : null;
  return async function originCheck(c, next) {
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowed(origin, publicOrigin)) {
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: `Forbidden: Origin ${origin} may not use this MCP endpoint (DNS rebinding protection)` }, id: null }, 403);
    }
    await next();
  };
}

function allowed(origin: string, publicOrigin: string | null): boolean {
  if (origin === publicOrigin) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_HOSTS.has(url.hostname) && url.origin === origin;
}
