import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { PermanentError, RetryableError } from '../errors';
import type { AddressGuard } from '../../net/address-guard';
import { MediaError } from '../../net/media-error';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import type { TokenRefresher } from '../shared/token-env';
import { mapBlueskyError } from './map-bluesky-error';
import { BSKY_HOST, pdsAccess, pdsOrigin } from './pds-access';
import { BlueskyApiError, XrpcClient } from './xrpc-client';

export const POST_COLLECTION = 'app.bsky.feed.post';

/** A record's strong reference (com.atproto.repo.strongRef). */
export interface StrongRef {
  uri: string;
  cid: string;
}

/** An authenticated line to the account's PDS. */
export interface BlueskySession {
  client: XrpcClient;
  /** The account's DID (the repo posts go to). */
  did: string;
  handle: string | null;
  /** The PDS host name (the audience of service tokens: did:web:<host>). */
  pdsHost: string;
  /** One call; an expired or refused access token is renewed once (refreshSession, else the app password) and the call repeated. */
  call<T>(step: string, creates: boolean, run: (client: XrpcClient) => Promise<T>): Promise<T>;
  /** getRecord at this key of the account's posts: the record, or null when the PDS says it does not exist. */
  getPost(rkey: string, step: string): Promise<StrongRef | null>;
}

/** The renewable errors: the access token expired (400 ExpiredToken) or was refused (401, InvalidToken). */
const refused = (err: unknown) => err instanceof BlueskyApiError && (err.status === 401 || err.error === 'ExpiredToken' || err.error === 'InvalidToken');

/** Opens the session a publish or a take-down uses; the DID comes from the connection, else from getSession. */
export async function openSession(ctx: CallContext, deps: { guard: AddressGuard; refresher: TokenRefresher; http?: Got | undefined; timeoutMs?: number | undefined }, known: { did?: string | undefined } = {}): Promise<BlueskySession> {
  let access;
  try {
    access = await pdsAccess(ctx.credentials, ctx.baseUrl, deps.guard, deps.http);
  } catch (err) {
    if (err instanceof MediaError && err.transient) throw new RetryableError(`The Bluesky PDS cannot be reached: ${err.message}`, { platformCode: err.code });
    throw new PermanentError(`The Bluesky PDS is refused: ${(err as Error).message}`, { platformCode: 'pds_refused' });
  }
  const token = await ensureAccessToken(ctx, deps.refresher);
  const client = new XrpcClient({ baseUrl: access.url, token, http: access.http, signal: ctx.signal, timeoutMs: deps.timeoutMs });
  const call = <T>(step: string, creates: boolean, run: (c: XrpcClient) => Promise<T>) =>
    callRenewingToken(ctx, () => run(client), {
      refused,
      renew: async () => client.setToken(await ensureAccessToken(ctx, deps.refresher, { force: true })),
      mapError: (err) => mapBlueskyError(err, { now: ctx.clock.now(), creates, step }),
    });
  const meta = ctx.credentials.meta;
  let did = typeof meta.did === 'string' ? meta.did : (known.did ?? null);
  let handle = typeof meta.handle === 'string' ? meta.handle : null;
  if (!did) {
    const me = await call('session lookup', false, (c) => c.query<{ did: string; handle: string }>('com.atproto.server.getSession'));
    did = me.body.did;
    handle = me.body.handle ?? handle;
  }
  const repo = did;
  return {
    client,
    did: repo,
    handle,
    pdsHost: ctx.credentials.mode === 'sandbox' ? BSKY_HOST : (pdsOrigin(ctx.credentials)?.hostname ?? BSKY_HOST),
    call,
    async getPost(rkey, step) {
      return call(step, false, async (c) => {
        try {
          const res = await c.query<{ uri: string; cid?: string }>('com.atproto.repo.getRecord', { params: { repo, collection: POST_COLLECTION, rkey } });
          return { uri: res.body.uri, cid: res.body.cid ?? '' };
        } catch (err) {
          if (err instanceof BlueskyApiError && err.error === 'RecordNotFound') return null;
          throw err;
        }
      });
    },
  };
}

/** `at://<did>/app.bsky.feed.post/<rkey>` -> its parts, or null. */
export function parsePostUri(uri: string): { repo: string; collection: string; rkey: string } | null {
  const m = /^at:\/\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(uri);
  return m ? { repo: m[1]!, collection: m[2]!, rkey: m[3]! } : null;
}

/** The post's page on bsky.app. */
export function postUrl(handleOrDid: string, rkey: string): string {
  return `https://bsky.app/profile/${handleOrDid}/post/${rkey}`;
}
