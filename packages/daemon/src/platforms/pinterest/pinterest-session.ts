import type { Got } from 'got';
import type { AccountAccess } from '../adapter';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import { mapPinterestError } from './map-pinterest-error';
import { PinterestApiError, PinterestClient } from './pinterest-client';
import { PINTEREST_API_HOST, pinterestTokenRefresher } from './refresh-token';

export interface SessionDeps {
  http?: Got;
  requestTimeoutMs?: number;
}

/** A client for one connection's calls, and `call()`: one call, a 401 renewing the token once, failures mapped to the publisher's errors. */
export interface PinterestSession {
  client: PinterestClient;
  call<T>(step: string, creates: boolean, run: (client: PinterestClient) => Promise<T>): Promise<T>;
}

export async function pinterestSession(ctx: AccountAccess, deps: SessionDeps): Promise<PinterestSession> {
  const client = new PinterestClient({
    baseUrl: ctx.baseUrl(PINTEREST_API_HOST),
    token: await ensureAccessToken(ctx, pinterestTokenRefresher),
    log: ctx.log,
    signal: ctx.signal,
    timeoutMs: deps.requestTimeoutMs,
    ...(deps.http ? { http: deps.http } : {}),
  });
  return {
    client,
    call: (step, creates, run) =>
      callRenewingToken(ctx, () => run(client), {
        refused: (err) => err instanceof PinterestApiError && err.status === 401,
        renew: async () => client.setToken(await ensureAccessToken(ctx, pinterestTokenRefresher, { force: true })),
        mapError: (err) => mapPinterestError(err, { now: ctx.clock.now(), creates, step }),
      }),
  };
}

/** The public page of a pin. */
export const pinUrl = (id: string): string => `https://www.pinterest.com/pin/${id}/`;
