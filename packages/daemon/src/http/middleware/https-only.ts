import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../errors';

/**
 * Behind a TLS-terminating proxy the daemon itself speaks plain HTTP, so it trusts the
 * proxy's X-Forwarded-Proto: a request that did not arrive over HTTPS is refused.
 */
export function httpsOnly(): MiddlewareHandler {
  return async function httpsOnly(c, next) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
    if (proto !== 'https') throw new ApiError('https_required', 'requests must be made over HTTPS (the proxy must send X-Forwarded-Proto: https)');
    await next();
  };
}
