import type { Context, MiddlewareHandler } from 'hono';
import type { RateClass, RateLimitConfig } from '../../config';
import type { Commits } from '../../store/commits';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

export interface RateLimitOptions {
  store: Store;
  commits: Commits;
  clock: Clock;
  limits: RateLimitConfig;
}

/** Whole seconds until `at`, never 0 (a client told to wait 0 s would retry at once). */
export const secondsUntil = (at: number, now: number) => Math.max(1, Math.ceil((at - now) / 1000));

function setHeaders(c: Context, limit: number, remaining: number, resetSeconds: number) {
  c.header('RateLimit-Limit', String(limit));
  c.header('RateLimit-Remaining', String(Math.max(0, remaining)));
  c.header('RateLimit-Reset', String(resetSeconds));
}

/** The 429 for an exhausted window, with Retry-After and error.retry_after counting down on the injected clock. */
export function rateLimitedError(what: string, resetAt: number, now: number, limit: number): ApiError {
  const retryAfter = secondsUntil(resetAt, now);
  return new ApiError('rate_limited', `${what}: ${limit} requests allowed per window; retry in ${retryAfter} s`, undefined, {
    retryAfter,
    headers: {
      'Retry-After': String(retryAfter),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(retryAfter),
    },
  });
}

const LABEL: Record<RateClass, string> = {
  auth: 'rate limit of the authentication class',
  publish: 'rate limit of the publishing class',
  media: 'rate limit of the media preparation class',
  scheduled: 'rate limit of the scheduled-content class',
  media_status: 'rate limit of media status polls',
  auth_failure: 'too many failed authentications from this address',
  account: 'rate limit of the account class (API keys, connections, review links)',
};

/** Counts the request against the user's window of `cls` (persisted in SQLite) and answers 429 past the limit. */
export function rateLimit(cls: RateClass, { store, commits, clock, limits }: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    if (!limits.enabled) return next();
    const { limit, windowMs } = limits.classes[cls];
    const now = clock.now();
    // A count lost to a power failure only lets a client make one more request: no fsync of its own.
    const take = commits.relaxed(() => store.rateWindows.take(c.get('user').id, cls, limit, windowMs, now));
    if (!take.allowed) throw rateLimitedError(LABEL[cls], take.resetAt, now, limit);
    setHeaders(c, limit, limit - take.count, secondsUntil(take.resetAt, now));
    await next();
  };
}
