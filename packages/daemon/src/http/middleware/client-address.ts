import type { Context } from 'hono';

/**
 * The client's address, for limiting failed authentication. Behind a TLS proxy the socket
 * is the proxy's, so the first X-Forwarded-For entry is used; otherwise that header is
 * ignored (a client could set it to dodge the limit).
 */
export function clientAddress(c: Context, behindProxy: boolean): string {
  if (behindProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}
