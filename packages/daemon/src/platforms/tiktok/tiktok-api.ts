import type { Got } from 'got';
import type { AccountAccess } from '../adapter';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { mapTikTokError } from './map-tiktok-error';
import { tiktokTokenRefresher } from './refresh-token';
import { TikTokApiError, TikTokClient } from './tiktok-client';

const HOST = 'open.tiktokapis.com';

/** A client for the connection, its access token refreshed first when due. */
export async function tiktokClient(ctx: AccountAccess, deps: { requestTimeoutMs?: number | undefined; http?: Got | undefined }): Promise<TikTokClient> {
  const token = await ensureAccessToken(ctx, tiktokTokenRefresher);
  return new TikTokClient({ baseUrl: ctx.baseUrl(HOST), token, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
}

/** One API call; an invalid token is refreshed once and the call repeated (a 401 did nothing). */
export async function tiktokApi<T>(ctx: AccountAccess, client: TikTokClient, step: string, path: string, body: unknown, creates = false): Promise<T> {
  return callRenewingToken(ctx, () => client.post<T>(path, body), {
    refused: (err) => err instanceof TikTokApiError && err.code === 'access_token_invalid',
    renew: async () => client.setToken(await ensureAccessToken(ctx, tiktokTokenRefresher, { force: true })),
    mapError: (err) => mapTikTokError(err, { now: ctx.clock.now(), step, creates }),
  });
}
