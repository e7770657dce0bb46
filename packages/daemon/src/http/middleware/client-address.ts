import type { Context } from 'hono';

/**
 * The client's address, for limiting failed authentication. Behind TLS proxies the socket
 * is the nearest proxy's, and each proxy appends the address it was reached from to
 * X-Forwarded-For. Only entries our own proxies appended can be trusted: a client may send
 * the header with anything in it, and the proxy appends after that. So with `trustedHops`
 * proxies in front, the entry `trustedHops` from the end is the client as the outermost
 * proxy saw it. A header with fewer entries (a client that reached an inner proxy directly)
 * counts by its first. Without a proxy (`trustedHops` 0) the header is ignored.
 */
export function clientAddress(c: Context, trustedHops: number): string {
  if (trustedHops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter((e) => e !== '');
    const forwarded = entries[Math.max(0, entries.length - trustedHops)];
    if (forwarded) return forwarded;
  }
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? 'local';
}
