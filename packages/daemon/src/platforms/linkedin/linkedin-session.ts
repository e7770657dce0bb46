import type { Got } from 'got';
import type { AccountAccess } from '../adapter';
import { callRenewingToken } from '../shared/call-renewing-token';
import type { LinkedinVersions } from './api-version';
import { linkedinToken } from './linkedin-auth';
import { LinkedinApiError, LinkedinClient } from './linkedin-client';
import { mapLinkedinError } from './map-linkedin-error';

export const LINKEDIN_API_HOST = 'api.linkedin.com';

export interface SessionDeps {
  versions: LinkedinVersions;
  http?: Got;
  requestTimeoutMs?: number;
}

/** A client for one connection's calls, and `call()`: one call, a 401 renewing the token once, failures mapped to the publisher's errors. */
export interface LinkedinSession {
  client: LinkedinClient;
  call<T>(step: string, creates: boolean, run: (client: LinkedinClient) => Promise<T>): Promise<T>;
}

export async function linkedinSession(ctx: AccountAccess, deps: SessionDeps): Promise<LinkedinSession> {
  const client = new LinkedinClient({
    baseUrl: ctx.baseUrl(LINKEDIN_API_HOST),
    token: await linkedinToken(ctx),
    versions: deps.versions,
    clock: ctx.clock,
    log: ctx.log,
    signal: ctx.signal,
    timeoutMs: deps.requestTimeoutMs,
    ...(deps.http ? { http: deps.http } : {}),
  });
  return {
    client,
    call: (step, creates, run) =>
      callRenewingToken(ctx, () => run(client), {
        refused: (err) => err instanceof LinkedinApiError && err.status === 401,
        renew: async () => client.setToken(await linkedinToken(ctx, true)),
        mapError: (err) => mapLinkedinError(err, { now: ctx.clock.now(), creates, step }),
      }),
  };
}

/** `urn:li:share:1` -> `urn%3Ali%3Ashare%3A1`, as Rest.li 2.0 wants URNs in paths and queries. */
export const encodeUrn = (urn: string): string => encodeURIComponent(urn);

/** The public page of a post. */
export const postUrl = (urn: string): string => `https://www.linkedin.com/feed/update/${urn}/`;
