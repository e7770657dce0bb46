import type { Context, MiddlewareHandler } from 'hono';
import type { RateLimitConfig } from '../../config';
import type { Commits } from '../../store/commits';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { countFailure, failureBuckets, refuseWhenSpent } from './auth-failures';
import { clientAddress } from './client-address';
import { checkScope } from './route-scope';

export interface AuthOptions {
  store: Store;
  commits: Commits;
  clock: Clock;
  limits: RateLimitConfig;
  behindProxy: boolean;
  /** Proxies in front that append to X-Forwarded-For (default 1). */
  trustedProxyHops?: number;
  /** Overrides how the client address is found (tests). */
  address?: (c: Context) => string;
}

const ACCEPTED = 'send the API key as X-API-Key: <key> or Authorization: Bearer <key>';

const REASON: Record<'malformed' | 'unknown' | 'revoked' | 'rotated', string> = {
  malformed: `malformed API key (expected sp_<id>_<secret>); ${ACCEPTED}`,
  unknown: 'invalid API key',
  revoked: 'this API key was revoked',
  rotated: 'this API key was rotated; use the key that replaced it',
};

/** The presented key, or the reason the headers do not carry one acceptably. */
function presentedKey(c: Context): { key: string } | { error: string } {
  const xApiKey = c.req.header('x-api-key')?.trim() || undefined;
  const authorization = c.req.header('authorization');
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const m = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization.trim());
    if (!m) return { error: `unsupported Authorization scheme; ${ACCEPTED}` };
    bearer = m[1];
  }
  if (xApiKey !== undefined && bearer !== undefined && xApiKey !== bearer) {
    return { error: 'X-API-Key and Authorization: Bearer carry different keys; send one key' };
  }
  const key = xApiKey || bearer;
  if (!key) return { error: `missing API key; ${ACCEPTED}` };
  return { key };
}

/**
 * Finds the user of the request's API key, and refuses (403 `insufficient_scope`) a key
 * whose scope does not reach the route the request matched (its declaration's `scope`).
 * Failed attempts are counted (persisted like
 * every limit) per client address and per key id, in windows kept apart by who could have
 * sent them (auth-failures.ts); once a window is used up, the requests it covers are
 * answered 429 before their key is even looked at, so keys cannot be guessed at speed.
 */
export function auth({ store, commits, clock, limits, behindProxy, trustedProxyHops = 1, address }: AuthOptions): MiddlewareHandler<AppEnv> {
  const addressOf = address ?? ((c: Context) => clientAddress(c, behindProxy ? trustedProxyHops : 0));
  return async function auth(c, next) {
    const now = clock.now();
    const addr = addressOf(c);
    const presented = presentedKey(c);
    const buckets = failureBuckets(c, addr, 'key' in presented ? presented.key : null);
    const windows = { store: { rateWindows: store.rateWindows, commits }, limits };
    refuseWhenSpent(windows, buckets, now);
    let message: string;
    if ('key' in presented) {
      // verify() writes last_used_at at most once a minute per key: FULL costs nothing there.
      const check = store.apiKeys.verify(presented.key, now);
      if (check.ok) {
        const user = store.users.get(check.userId);
        if (user) {
          c.set('user', user);
          c.set('keyId', check.keyId);
          c.set('scope', check.scope);
          checkScope(c, check.scope);
          return next();
        }
        message = REASON.unknown;
      } else {
        message = REASON[check.reason];
      }
    } else {
      message = presented.error;
    }
    countFailure(windows, buckets, now);
    c.get('log')?.info('authentication failed', { address: addr, reason: message });
    throw new ApiError('unauthorized', message, undefined, { headers: { 'WWW-Authenticate': 'Bearer realm="socialpub"' } });
  };
}
