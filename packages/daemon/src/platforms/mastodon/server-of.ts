import type { Got } from 'got';
import { AddressGuard } from '../../net/address-guard';
import type { CallContext } from '../adapter';
import { AuthExpiredError } from '../errors';
import { MastodonClient } from './mastodon-client';

/** The simulator's host: sandbox connections (and connections without a server) talk to it. */
export const MASTODON_SANDBOX_HOST = 'mastodon.social';

/** The host (with its port, if any) of the server a connection lives on. */
export function serverHost(meta: Record<string, unknown>): string {
  const server = meta.server;
  if (typeof server !== 'string') return MASTODON_SANDBOX_HOST;
  try {
    return new URL(server).host;
  } catch {
    return MASTODON_SANDBOX_HOST;
  }
}

export interface ClientDeps {
  http?: Got;
  requestTimeoutMs?: number;
  /** Let live calls reach private addresses (tests against a loopback server). Default false. */
  allowPrivate?: boolean;
}

/**
 * A client for the connection's own server: `https://<server>` live, through the daemon's
 * address guard (a server is any host a user named, so every lookup is checked), or the
 * daemon's simulator for sandbox connections.
 */
export function clientFor(ctx: Pick<CallContext, 'credentials' | 'baseUrl' | 'signal'>, deps: ClientDeps): MastodonClient {
  const token = ctx.credentials.secrets.access_token;
  if (!token) throw new AuthExpiredError('the Mastodon connection holds no access token; reconnect with `socialpub connect mastodon`', { platformCode: 'no-token' });
  const live = ctx.credentials.mode === 'live';
  return new MastodonClient({
    baseUrl: ctx.baseUrl(serverHost(ctx.credentials.meta)),
    token,
    signal: ctx.signal,
    ...(deps.requestTimeoutMs ? { timeoutMs: deps.requestTimeoutMs } : {}),
    ...(live && !deps.allowPrivate ? { guard: new AddressGuard() } : {}),
    ...(deps.http ? { http: deps.http } : {}),
  });
}
