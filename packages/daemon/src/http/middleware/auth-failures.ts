import type { Context } from 'hono';
import type { RateLimitConfig } from '../../config';
import { apiKeyId } from '../../store/api-keys';
import type { Store } from '../../store/store';
import { rateLimitedError } from './rate-limit';

/** One window failed authentication is counted in (rate_windows, class auth_failure), and what its 429 names as used up (`rate limited (<what>: 30 per 10 minutes); …`). */
export interface FailureBucket {
  scope: string;
  what: string;
}

/**
 * Whether a browser sent the request on behalf of a page of another origin: `Sec-Fetch-Site`
 * `cross-site` or `same-site` (a page on another port of localhost is same-site). Browsers set
 * it and pages cannot change it; clients that are not browsers send none.
 */
export const fromWebPage = (c: Context) => {
  const site = c.req.header('sec-fetch-site')?.trim().toLowerCase();
  return site === 'cross-site' || site === 'same-site';
};

/**
 * The windows a request's failed authentication is counted in, and which of them refuse it
 * before its key is looked at. Separate windows, so no one's failures spend another's:
 * - a page of another site (fromWebPage): its own window per address, which refuses only
 *   such requests; whatever a web page makes a browser send never locks out the local
 *   clients at that address (issue 35, item 10: 40 keyless cross-site requests did);
 * - a well-formed key (`sp_key_…_…`) that fails: the address's window (guessing from one
 *   place) and the key id's (guessing one key's secret from many places);
 * - no key, or one not of the key format: the address's keyless window. Such a request
 *   cannot be a guess, so it refuses only other keyless requests, never a client with a key.
 */
export function failureBuckets(c: Context, address: string, presentedKey: string | null): FailureBucket[] {
  const keyId = presentedKey === null ? null : apiKeyId(presentedKey);
  const byKey: FailureBucket[] = keyId ? [{ scope: `key:${keyId}`, what: 'failed authentications with this API key id' }] : [];
  if (fromWebPage(c)) return [{ scope: `web:${address}`, what: 'failed authentications from web pages at this address' }, ...byKey];
  if (keyId) return [{ scope: address, what: 'failed authentications from this address' }, ...byKey];
  return [{ scope: `keyless:${address}`, what: 'requests without a valid API key from this address' }];
}

/**
 * The windows a guessed token's failure (a review link's, in the API or its page /r/{token})
 * is counted in: the address's, as a bad key's, or a web page's own at that address.
 */
export function tokenGuessBuckets(c: Context, address: string): FailureBucket[] {
  if (fromWebPage(c)) return [{ scope: `web:${address}`, what: 'failed authentications from web pages at this address' }];
  return [{ scope: address, what: 'failed authentications from this address' }];
}

export interface FailureWindows {
  store: Pick<Store, 'rateWindows' | 'commits'>;
  limits: RateLimitConfig;
}

/** The first of `buckets` whose failures used up the window, with when it resets; null when none did or rate limits are off. */
export function spentWindow({ store, limits }: FailureWindows, buckets: FailureBucket[], now: number): { bucket: FailureBucket; resetAt: number; limit: number; windowMs: number } | null {
  if (!limits.enabled) return null;
  const { limit, windowMs } = limits.classes.auth_failure;
  for (const bucket of buckets) {
    const seen = store.rateWindows.peek(bucket.scope, 'auth_failure', windowMs, now);
    if (seen.count >= limit) return { bucket, resetAt: seen.resetAt, limit, windowMs };
  }
  return null;
}

/** Throws the 429 of the first of `buckets` whose failures used up the window. */
export function refuseWhenSpent(windows: FailureWindows, buckets: FailureBucket[], now: number): void {
  const spent = spentWindow(windows, buckets, now);
  if (spent) throw rateLimitedError(spent.bucket.what, spent.resetAt, now, spent.limit, spent.windowMs);
}

/** Counts one failure in each of `buckets` (a count lost to a power failure allows one more try: no fsync of its own). */
export function countFailure({ store, limits }: FailureWindows, buckets: FailureBucket[], now: number): void {
  if (!limits.enabled) return;
  const { windowMs } = limits.classes.auth_failure;
  store.commits.relaxed(() => buckets.map((b) => store.rateWindows.take(b.scope, 'auth_failure', Number.MAX_SAFE_INTEGER, windowMs, now)));
}
