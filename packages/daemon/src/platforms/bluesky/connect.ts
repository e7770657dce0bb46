import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import { AddressGuard } from '../../net/address-guard';
import { MediaError } from '../../net/media-error';
import type { ConnectionInfo } from '../../store/connections';
import { systemClock } from '../../util/clock';
import type { ConnectDeps } from '../platform-module';
import { ask } from '../shared/ask';
import { defaultIdentityResolver, IdentityError, resolveIdentity, type IdentityResolver } from './identity';
import { pdsAccess } from './pds-access';
import { sessionUpdate, type SessionBody } from './session';
import { BlueskyApiError, BlueskyTransportError, XrpcClient } from './xrpc-client';

export interface BlueskyConnectOptions {
  userId: string;
  /** The account's handle (alice.bsky.social, or a custom domain); prompted when missing. */
  handle?: string;
  /** An app password (Settings > Privacy and security > App passwords); prompted when missing. */
  appPassword?: string;
  timeoutMs?: number;
}

export interface BlueskyConnectDeps extends ConnectDeps {
  /** Handle and DID resolution (default: DNS and HTTPS through the SSRF-safe fetcher, the PLC directory). */
  identity?: IdentityResolver;
  /** Checks the PDS's address (default: public addresses only). */
  guard?: AddressGuard;
}

/**
 * `socialpub connect bluesky`: a handle and an app password. The handle is resolved to its
 * DID and the DID document to the account's PDS (so accounts on self-hosted PDSes work),
 * both directions checked; the PDS must be on a public address. A session is created
 * there with the app password (com.atproto.server.createSession); the connection keeps
 * the DID, handle, PDS, the session's tokens and the app password, all sealed, so an
 * expired session is re-created without asking again.
 */
export async function connectBluesky(options: BlueskyConnectOptions, io: ConnectIO, deps: BlueskyConnectDeps): Promise<ConnectionInfo> {
  const clock = deps.clock ?? systemClock;
  const baseUrl = deps.baseUrl ?? ((h: string) => `https://${h}`);
  const guard = deps.guard ?? new AddressGuard();
  const identity = deps.identity ?? defaultIdentityResolver({ guard, plcUrl: baseUrl('plc.directory') });
  const signal = AbortSignal.timeout(options.timeoutMs ?? 60_000);

  const handle = await ask(io, options.handle, 'Bluesky handle');
  const appPassword = await ask(io, options.appPassword, 'App password', { secret: true });

  let who;
  try {
    who = await resolveIdentity(handle, identity, signal);
  } catch (err) {
    if (err instanceof IdentityError) throw new ConnectError(`handle: ${err.message}`);
    throw new ConnectError(`handle: could not resolve ${handle}: ${(err as Error).message}`);
  }
  const creds = { connectionId: 'connect', mode: 'live' as const, accountId: who.did, accountName: who.handle, pageId: null, pageName: null, secrets: {}, tokenExpiresAt: null, refreshExpiresAt: null, tokenObtainedAt: null, meta: { pds: who.pds } };
  let access;
  try {
    access = await pdsAccess(creds, baseUrl, guard, deps.http);
  } catch (err) {
    const why = err instanceof MediaError ? err.message : `cannot be reached: ${(err as Error).message}`;
    throw new ConnectError(`handle: the PDS of ${who.handle} (${who.pds}) is refused: ${why}`);
  }
  const client = new XrpcClient({ baseUrl: access.url, token: null, http: access.http, signal, timeoutMs: 30_000 });
  let session: SessionBody;
  try {
    session = (await client.procedure<SessionBody>('com.atproto.server.createSession', { json: { identifier: who.did, password: appPassword } })).body;
  } catch (err) {
    if (err instanceof BlueskyApiError && (err.status === 401 || err.error === 'AuthenticationRequired')) {
      throw new ConnectError(`app password: ${who.pds} refused it for ${who.handle} (${err.error ?? err.status}: ${err.message}); create one under Settings > Privacy and security > App passwords`);
    }
    if (err instanceof BlueskyApiError) throw new ConnectError(`${who.pds} refused the session (${err.error ?? err.status}): ${err.message}`);
    if (err instanceof BlueskyTransportError) throw new ConnectError(`handle: the PDS of ${who.handle} (${who.pds}) did not answer: ${err.message}`);
    throw err;
  }
  if (session.did !== who.did) throw new ConnectError(`handle: the PDS opened a session for ${session.did}, not ${who.did}`);
  const update = sessionUpdate(session, clock.now());
  const info = deps.connections.save(options.userId, 'bluesky', {
    mode: 'live',
    accountId: who.did,
    accountName: session.handle || who.handle,
    secrets: { ...update.secrets, app_password: appPassword },
    tokenExpiresAt: update.tokenExpiresAt ?? null,
    refreshExpiresAt: update.refreshExpiresAt ?? null,
    tokenObtainedAt: update.tokenObtainedAt ?? clock.now(),
    meta: { auth: 'app-password', handle: session.handle || who.handle, did: who.did, pds: who.pds },
  });
  io.print(`Connected Bluesky account @${session.handle || who.handle} (${who.did}) on ${who.pds}.`);
  return info;
}
