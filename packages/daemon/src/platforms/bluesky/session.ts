import type { Credentials, TokenUpdate } from '../adapter';
import type { AddressGuard } from '../../net/address-guard';
import { MediaError } from '../../net/media-error';
import type { TokenEnv, TokenRefresher } from '../shared/token-env';
import { TokenRefreshError } from '../shared/token-refresh-error';
import { defaultPdsGuard, pdsAccess } from './pds-access';
import { BlueskyApiError, XrpcClient } from './xrpc-client';

/** What createSession and refreshSession answer (com.atproto.server.createSession / refreshSession). */
export interface SessionBody {
  accessJwt: string;
  refreshJwt: string;
  handle: string;
  did: string;
  didDoc?: unknown;
  active?: boolean;
}

/** The `exp` of a JWT in epoch ms, or null when it has none or is not a JWT. */
export function jwtExpiry(jwt: string): number | null {
  const payload = jwt.split('.')[1];
  if (!payload) return null;
  try {
    const exp = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** A session's tokens as stored on the connection (the app password is kept beside them, never replaced). */
export function sessionUpdate(session: SessionBody, now: number): TokenUpdate {
  return {
    secrets: { access_token: session.accessJwt, refresh_token: session.refreshJwt },
    tokenExpiresAt: jwtExpiry(session.accessJwt),
    refreshExpiresAt: jwtExpiry(session.refreshJwt),
    tokenObtainedAt: now,
  };
}

/** Errors that say the refresh token is spent or expired (a new session from the app password is then due). */
const SESSION_GONE = new Set(['ExpiredToken', 'InvalidToken', 'AuthenticationRequired']);

/** createSession with the stored identifier and app password; null when the connection has no app password. */
export async function createSessionWithAppPassword(creds: Credentials, client: XrpcClient): Promise<SessionBody | null> {
  const password = creds.secrets.app_password;
  if (!password) return null;
  const identifier = creds.accountId ?? (typeof creds.meta.handle === 'string' ? creds.meta.handle : null);
  if (!identifier) return null;
  const res = await client.procedure<SessionBody>('com.atproto.server.createSession', { json: { identifier, password }, token: null });
  return res.body;
}

/**
 * Bluesky's TokenRefresher, a session renewal: refreshSession with the refresh JWT (it rotates: the answer's
 * pair replaces the stored one); when that token is expired or revoked, a new session
 * from the app password (createSession). Only the app password being refused
 * (AuthenticationRequired) ends the connection.
 */
export function blueskyTokenRefresher(guard: AddressGuard = defaultPdsGuard): TokenRefresher {
  return {
    platform: 'bluesky',
    applies: (c) => Boolean(c.secrets.refresh_token || c.secrets.app_password),
    // The background round renews once the access token is a day old (the refresh JWT lives 90 days and rotates).
    minAgeMs: 24 * 3_600_000,
    rotating: true,
    refresh: (creds, env) => renewSession(guard, creds, env),
    isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
  };
}

async function renewSession(guard: AddressGuard, creds: Credentials, env: TokenEnv): Promise<TokenUpdate> {
  let access;
  try {
    access = await pdsAccess(creds, env.baseUrl, guard, env.http);
  } catch (err) {
    // A PDS on a refused address ends the connection; a lookup that failed for now does not.
    const refused = !(err instanceof MediaError && err.transient);
    throw new TokenRefreshError(`The Bluesky PDS ${refused ? 'is refused' : 'cannot be reached'}: ${(err as Error).message}`, refused, 'pds_refused');
  }
  const client = new XrpcClient({ baseUrl: access.url, token: null, signal: env.signal, http: access.http, timeoutMs: 30_000 });
  const now = () => env.clock.now();
  const refreshJwt = creds.secrets.refresh_token;
  if (refreshJwt) {
    try {
      const res = await client.procedure<SessionBody>('com.atproto.server.refreshSession', { token: refreshJwt });
      return sessionUpdate(res.body, now());
    } catch (err) {
      if (!(err instanceof BlueskyApiError)) throw new TokenRefreshError(`refreshSession: ${(err as Error).message}`, false);
      if (!(err.status === 401 || (err.error !== null && SESSION_GONE.has(err.error)))) {
        throw new TokenRefreshError(`Bluesky refused refreshSession (${err.error ?? err.status}): ${err.message}`, err.status < 500 && err.status !== 429, err.error);
      }
    }
  }
  try {
    const session = await createSessionWithAppPassword(creds, client);
    if (!session) throw new TokenRefreshError('The Bluesky session expired and the connection keeps no app password', true, 'ExpiredToken');
    return sessionUpdate(session, now());
  } catch (err) {
    if (err instanceof TokenRefreshError) throw err;
    if (err instanceof BlueskyApiError) {
      const permanent = err.status === 401 || err.error === 'AuthenticationRequired' || err.error === 'AccountTakedown';
      throw new TokenRefreshError(`Bluesky refused the app password (${err.error ?? err.status}): ${err.message}`, permanent, err.error);
    }
    throw new TokenRefreshError(`createSession: ${(err as Error).message}`, false);
  }
}
