import { rateLimitedMessage } from '@socialpub/core';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
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

/**
 * The 429 for an exhausted window, with Retry-After and error.retry_after counting down on
 * the injected clock; its message says what ran out and when to try again, as every tool
 * of ours says it (core's rateLimitedMessage: `rate limited (scheduled-content: 100 an
 * hour); try again in 25 min`).
 */
export function rateLimitedError(what: string, resetAt: number, now: number, limit: number, windowMs: number): ApiError {
  const retryAfter = secondsUntil(resetAt, now);
  return new ApiError('rate_limited', rateLimitedMessage(what, limit, windowMs, retryAfter), undefined, {
    retryAfter,
    headers: {
      'Retry-After': String(retryAfter),
      'RateLimit-Limit': String(limit),
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': String(retryAfter),
    },
  });
}

/** Each class as the 429 names it (docs/api.md's table of classes). */
export const RATE_CLASS_LABEL: Record<RateClass, string> = {
  auth: 'authentication',
  publish: 'publishing',
  media: 'media preparation',
  scheduled: 'scheduled-content',
  media_status: 'media status',
  validate: 'validations',
  review: 'approvals and rejections',
  unpublish: 'take-downs',
  upload: 'media uploads',
  platforms: 'platforms list',
  creator_info: 'TikTok creator info',
  settings: 'settings',
  queue: 'posting queue',
  series: 'series',
  events: 'event streams',
  webhooks: 'webhooks',
  webhook_send: 'webhook tests and redeliveries',
  sandbox: 'sandbox posts',
  auth_failure: 'failed authentications from this address',
  account: 'account (API keys, connections, review links)',
  inbox: 'inbox',
  inbox_reply: 'inbox replies and refreshes',
  analytics: 'analytics reads',
  analytics_refresh: 'analytics refreshes',
};

const RATE_CLASS = Symbol('rateClass');
type Marked = MiddlewareHandler<AppEnv> & { [RATE_CLASS]: RateClass };

/**
 * Declares the rate class of the route it is put on (first among the route's handlers):
 * `.get('/', rateClass('platforms'), handler)`. It does nothing itself; the limiter in front
 * of every authenticated route (app.ts) finds the class of the route a request matched
 * and counts the request there. createApp refuses to build an app with an API route that
 * declares none (`checkRateClasses`), so a new endpoint must choose.
 */
export function rateClass(cls: RateClass): MiddlewareHandler<AppEnv> {
  const mark = (async (_c, next) => next()) as Marked;
  mark[RATE_CLASS] = cls;
  return mark;
}

/** The class a route handler declares (looking through hono's wrapper of a mounted app's handler). */
export function declaredRateClass(handler: unknown): RateClass | undefined {
  if (typeof handler !== 'function') return undefined;
  const h = handler as Partial<Marked> & { __COMPOSED_HANDLER?: unknown };
  return h[RATE_CLASS] ?? (h.__COMPOSED_HANDLER ? declaredRateClass(h.__COMPOSED_HANDLER) : undefined);
}

/** The class declared by the route this request matched, or undefined (no route: a 404). */
export function matchedRateClass(c: Context): RateClass | undefined {
  for (const route of matchedRoutes(c)) {
    const cls = declaredRateClass(route.handler);
    if (cls) return cls;
  }
  return undefined;
}

/**
 * Throws when a route under `prefix` (other than `except`) declares no rate class: the
 * routes of `app.routes`, grouped by method and path.
 */
export function checkRateClasses(routes: ReadonlyArray<{ method: string; path: string; handler: unknown }>, prefix: string, isPublic: (path: string) => boolean): void {
  const declared = new Map<string, boolean>();
  for (const r of routes) {
    if (r.method === 'ALL' || !r.path.startsWith(`${prefix}/`) || isPublic(r.path)) continue;
    const key = `${r.method} ${r.path}`;
    declared.set(key, (declared.get(key) ?? false) || declaredRateClass(r.handler) !== undefined);
  }
  const missing = [...declared].filter(([, ok]) => !ok).map(([key]) => key);
  if (missing.length) throw new Error(`routes without a rate class (put rateClass(...) first among their handlers): ${missing.join(', ')}`);
}

/** Counts the request against the user's window of `cls` (persisted in SQLite) and answers 429 past the limit. */
export function rateLimit(cls: RateClass, { store, commits, clock, limits }: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async function rateLimit(c, next) {
    if (!limits.enabled) return next();
    const { limit, windowMs } = limits.classes[cls];
    const now = clock.now();
    // A count lost to a power failure only lets a client make one more request: no fsync of its own.
    const take = commits.relaxed(() => store.rateWindows.take(c.get('user').id, cls, limit, windowMs, now));
    if (!take.allowed) throw rateLimitedError(RATE_CLASS_LABEL[cls], take.resetAt, now, limit, windowMs);
    setHeaders(c, limit, limit - take.count, secondsUntil(take.resetAt, now));
    await next();
  };
}
