import { GraphClient } from './graph-client';
import type { Got } from 'got';

export interface TokenGrant {
  accessToken: string;
  /** Seconds, when the platform says. */
  expiresIn: number | null;
  userId: string | null;
}

interface EndpointOptions {
  /** `https://graph.instagram.com` (or the simulator's URL for it). */
  baseUrl: string;
  signal?: AbortSignal;
  http?: Got;
}

const grant = (b: Record<string, unknown>): TokenGrant => {
  // Instagram's code exchange is documented as {data:[{...}]} and observed flat; accept both.
  const row = (Array.isArray(b.data) ? (b.data[0] as Record<string, unknown>) : b) ?? {};
  if (typeof row.access_token !== 'string' || row.access_token === '') throw new Error('The token endpoint answered without an access_token');
  return {
    accessToken: row.access_token,
    expiresIn: typeof row.expires_in === 'number' ? row.expires_in : null,
    userId: row.user_id !== undefined && row.user_id !== null ? String(row.user_id) : null,
  };
};

const client = (o: EndpointOptions, version: string | null, token = '') => new GraphClient({ baseUrl: o.baseUrl, version, token, tokenIn: 'param', signal: o.signal, http: o.http, timeoutMs: 30_000 });

/** Instagram Login: `GET graph.instagram.com/refresh_access_token?grant_type=ig_refresh_token` (token >= 24 h old, unexpired). */
export async function refreshInstagramToken(o: EndpointOptions & { token: string }): Promise<TokenGrant> {
  return grant(await client(o, null, o.token).request('refresh_access_token', { params: { grant_type: 'ig_refresh_token' } }));
}

/** Threads: `GET graph.threads.net/refresh_access_token?grant_type=th_refresh_token`. */
export async function refreshThreadsToken(o: EndpointOptions & { token: string }): Promise<TokenGrant> {
  return grant(await client(o, null, o.token).request('refresh_access_token', { params: { grant_type: 'th_refresh_token' } }));
}

/** Code exchange: Instagram at api.instagram.com, Threads at graph.threads.net (POST form). */
export async function exchangeCode(o: EndpointOptions & { appId: string; appSecret: string; code: string; redirectUri: string }): Promise<TokenGrant> {
  const c = client(o, null);
  return grant(
    await c.request('oauth/access_token', {
      method: 'POST',
      authorization: null,
      params: { client_id: o.appId, client_secret: o.appSecret, grant_type: 'authorization_code', redirect_uri: o.redirectUri, code: o.code },
    }),
  );
}

/** Short-lived -> long-lived (60 days): `ig_exchange_token` or `th_exchange_token`. */
export async function exchangeLongLived(o: EndpointOptions & { grantType: 'ig_exchange_token' | 'th_exchange_token'; appSecret: string; token: string }): Promise<TokenGrant> {
  return grant(await client(o, null, o.token).request('access_token', { params: { grant_type: o.grantType, client_secret: o.appSecret } }));
}

/** Facebook Login: code -> user token, then `fb_exchange_token` -> long-lived user token. */
export async function exchangeFacebookCode(o: EndpointOptions & { version: string; appId: string; appSecret: string; code: string; redirectUri: string }): Promise<TokenGrant> {
  const c = client(o, o.version);
  const short = grant(await c.request('oauth/access_token', { authorization: null, params: { client_id: o.appId, client_secret: o.appSecret, redirect_uri: o.redirectUri, code: o.code } }));
  return grant(
    await c.request('oauth/access_token', {
      authorization: null,
      params: { grant_type: 'fb_exchange_token', client_id: o.appId, client_secret: o.appSecret, fb_exchange_token: short.accessToken },
    }),
  );
}
