import { scopeAllows, type KeyScope } from '@socialpub/core';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const ROUTE_SCOPE = Symbol('routeScope');
type Marked = MiddlewareHandler<AppEnv> & { [ROUTE_SCOPE]: KeyScope };

/**
 * Declares the key scope the route it is put on needs (mount-route.ts puts it on every keyed
 * route from its declaration). It does nothing itself: authentication, in front of every
 * route, finds the scope of the route a request matched (matchedScope) and refuses a key
 * below it before the route runs, like rateClass() for the limiter.
 */
export function routeScope(scope: KeyScope): MiddlewareHandler<AppEnv> {
  const mark = (async (_c, next) => next()) as Marked;
  mark[ROUTE_SCOPE] = scope;
  return mark;
}

function declaredScope(handler: unknown): KeyScope | undefined {
  if (typeof handler !== 'function') return undefined;
  const h = handler as Partial<Marked> & { __COMPOSED_HANDLER?: unknown };
  return h[ROUTE_SCOPE] ?? (h.__COMPOSED_HANDLER ? declaredScope(h.__COMPOSED_HANDLER) : undefined);
}

/** The scope declared by the route this request matched, or undefined (no route: a 404 follows). */
export function matchedScope(c: Context): KeyScope | undefined {
  for (const route of matchedRoutes(c)) {
    const scope = declaredScope(route.handler);
    if (scope) return scope;
  }
  return undefined;
}

/**
 * 403 `insufficient_scope` when the caller's key does not reach the matched route's scope;
 * the message and details name the scope missing and the key's own.
 */
export function checkScope(c: Context<AppEnv>, scope: KeyScope): void {
  const needed = matchedScope(c);
  if (needed === undefined || scopeAllows(scope, needed)) return;
  throw new ApiError(
    'insufficient_scope',
    `${c.req.method} ${c.req.path} needs a key of scope ${needed}; this key's scope is ${scope} (create one with socialpub keys create --scope ${needed})`,
    [{ path: 'scope', message: `needs ${needed}`, required_scope: needed, key_scope: scope }],
  );
}
