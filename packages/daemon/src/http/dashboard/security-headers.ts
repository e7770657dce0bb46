import type { MiddlewareHandler } from 'hono';

/**
 * The dashboard's Content-Security-Policy: its own scripts and styles only (no inline
 * script or style, no eval), data only from its own origin, no plugins, no <base>, forms
 * only to itself, never framed.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Every dashboard response (pages, assets, sign-in answers, redirects): CSP, nosniff, no Referer, no framing. */
export function securityHeaders({ noindex = false }: { noindex?: boolean } = {}): MiddlewareHandler {
  return async function securityHeaders(c, next) {
    await next();
    c.header('Content-Security-Policy', DASHBOARD_CSP);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cross-Origin-Opener-Policy', 'same-origin');
    if (noindex) c.header('X-Robots-Tag', 'noindex, nofollow');
  };
}
