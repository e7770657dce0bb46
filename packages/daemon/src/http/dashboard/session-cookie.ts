import { timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { DaemonConfig } from '../../config';
import type { DashboardSession } from '../../store/dashboard-sessions';
import { SESSION_TTL_MS } from '../../store/dashboard-sessions';
import { ApiError } from '../errors';

/** The dashboard's session cookie. */
export const SESSION_COOKIE = 'sp_session';
/** The header a signed-in page sends its session's CSRF token in on unsafe methods. */
export const CSRF_HEADER = 'X-CSRF-Token';

/** Served over TLS: the daemon's own TLS, or a TLS proxy (behind_proxy refuses plain HTTP). */
export const servedOverTls = (config: DaemonConfig) => config.tls !== null || config.behindProxy;

export function readSessionCookie(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

/** HttpOnly (no page script reads it), SameSite=Strict (no cross-site request carries it), Secure under TLS, Path=/, 12 h. */
export function setSessionCookie(c: Context, config: DaemonConfig, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'Strict',
    secure: servedOverTls(config),
    path: '/',
    maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(c: Context, config: DaemonConfig): void {
  deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: servedOverTls(config) });
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const isUnsafeMethod = (method: string) => UNSAFE.has(method.toUpperCase());

/** The origins a same-origin request of the dashboard comes from: the URL it was sent to (https behind a TLS proxy) and the configured public URL. */
function ownOrigins(c: Context, config: DaemonConfig): Set<string> {
  const origins = new Set<string>();
  const url = new URL(c.req.url);
  if (config.behindProxy) url.protocol = 'https:';
  origins.add(url.origin);
  if (config.publicUrl) origins.add(new URL(config.publicUrl).origin);
  return origins;
}

/**
 * Whether the browser says the request came from a page of this origin: `Origin` equal to
 * ours, or (without an Origin) `Sec-Fetch-Site: same-origin`. A request with neither is
 * refused: the browsers the dashboard supports send them on every unsafe request.
 */
export function fromOwnOrigin(c: Context, config: DaemonConfig): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = c.req.header('origin');
  if (origin !== undefined) return ownOrigins(c, config).has(origin);
  return site === 'same-origin';
}

const sameText = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** 403 csrf_failed unless an unsafe request made with the session cookie is same-origin and carries the session's CSRF token. */
export function checkCsrf(c: Context, config: DaemonConfig, session: DashboardSession): void {
  if (!fromOwnOrigin(c, config)) {
    throw new ApiError('csrf_failed', 'cross-site request refused: a request made with the dashboard session must come from the dashboard itself (Origin or Sec-Fetch-Site)');
  }
  const sent = c.req.header(CSRF_HEADER);
  if (sent === undefined || !sameText(sent, session.csrfToken)) {
    throw new ApiError('csrf_failed', `missing or wrong ${CSRF_HEADER}: send the csrf_token GET /auth/session answers`);
  }
}
