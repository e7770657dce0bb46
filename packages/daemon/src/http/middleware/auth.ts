import type { Context, MiddlewareHandler } from 'hono';
import type { RateLimitConfig } from '../../config';
import type { Commits } from '../../store/commits';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { clientAddress } from './client-address';
import { rateLimitedError } from './rate-limit';
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
 * whose scope does not reach the route the request matched (its declaration's `scope`). Failed attempts are counted per client
 * address (persisted like every limit); once an address has used its allowance, it is
 * answered 429 before its key is even looked at, so keys cannot be guessed at speed.
 */
export function auth({ store, commits, clock, limits, behindProxy, trustedProxyHops = 1, address }: AuthOptions): MiddlewareHandler<AppEnv> {
  const addressOf = address ?? ((c: Context) => clientAddress(c, behindProxy ? trustedProxyHops : 0));
  return async function auth(c, next) {
    const now = clock.now();
    const addr = addressOf(c);
    const failures = limits.classes.auth_failure;
    if (limits.enabled) {
      const seen = store.rateWindows.peek(addr, 'auth_failure', failures.windowMs, now);
      if (seen.count >= failures.limit) throw rateLimitedError('too many failed authentications from this address', seen.resetAt, now, failures.limit);
    }
    const presented = presentedKey(c);
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
    if (limits.enabled) commits.relaxed(() => store.rateWindows.take(addr, 'auth_failure', Number.MAX_SAFE_INTEGER, failures.windowMs, now));
    c.get('log')?.info('authentication failed', { address: addr, reason: message });
    throw new ApiError('unauthorized', message, undefined, { headers: { 'WWW-Authenticate': 'Bearer realm="socialpub"' } });
  };
}
