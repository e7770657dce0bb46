import { formatInstant } from '@socialpub/core';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { DaemonConfig, RateLimitConfig } from '../../config';
import type { DashboardSession } from '../../store/dashboard-sessions';
import type { Store } from '../../store/store';
import type { User } from '../../store/users';
import type { Clock } from '../../util/clock';
import { messagePage } from '../dashboard/message-page';
import { securityHeaders } from '../dashboard/security-headers';
import { checkCsrf, clearSessionCookie, fromOwnOrigin, readSessionCookie, setSessionCookie } from '../dashboard/session-cookie';
import { ApiError } from '../errors';
import { readJsonObject } from '../json-body';
import { RATE_CLASS_LABEL, rateLimitedError } from '../middleware/rate-limit';
import { countFailure, failureBuckets, refuseWhenSpent } from '../middleware/auth-failures';

export interface DashboardAuthDeps {
  store: Store;
  clock: Clock;
  config: DaemonConfig;
  limits: RateLimitConfig;
  /** The client address, for the failed-authentication limit the API keys share. */
  address: (c: Context) => string;
}

/** Sign-in with an API key: a key is about 100 characters; anything much larger is not one. */
const MAX_SIGNIN_BODY = 4096;

const sessionBody = (user: User, session: DashboardSession) => ({
  user: { id: user.id, email: user.email },
  csrf_token: session.csrfToken,
  expires_at: formatInstant(session.expiresAt),
});

/**
 * The dashboard's sign-in (docs/dashboard.md, "Security model"): the one-time link
 * `socialpub dashboard` prints, sign-in with an API key, the session and sign-out. Every
 * answer carries the dashboard's security headers; tokens leave the URL by a 303.
 */
export function dashboardAuthRoutes({ store, clock, config, limits, address }: DashboardAuthDeps) {
  const headers = securityHeaders();
  const app = new Hono();

  const refusedLink = (c: Context) => {
    c.header('Cache-Control', 'no-store');
    c.header('Content-Type', 'text/html; charset=utf-8');
    return c.body(
      messagePage('Sign-in link used or expired', [
        'This sign-in link was already used or has expired (links work once, for 10 minutes).',
        'Run socialpub dashboard again for a new one, or sign in with an API key.',
      ]),
      410,
    );
  };

  /** Uses the link up and opens a session in one transaction, sets the cookie and sends the browser to the app. */
  const consume = async (c: Context, token: string) => {
    const now = clock.now();
    const opened = await store.commits.durable(() => {
      const used = store.dashboardSessions.consumeSigninLink(token, now);
      if (!used.ok || !store.users.get(used.userId)) return null;
      return store.dashboardSessions.createSession(used.userId, now);
    });
    if (!opened) return refusedLink(c);
    setSessionCookie(c, config, opened.token);
    c.header('Cache-Control', 'no-store');
    return c.redirect('/', 303);
  };

  // A link opened from the terminal, the address bar or a bookmark (Sec-Fetch-Site none or
  // absent, or a same-origin page) signs in at once. One another site led the browser to
  // could sign the person in to someone else's account (login CSRF): it gets a page with a
  // button that posts the link back from our own origin instead.
  app.get('/link/:token', headers, async (c) => {
    const site = c.req.header('sec-fetch-site');
    if (site === undefined || site === 'none' || site === 'same-origin') return consume(c, c.req.param('token'));
    c.header('Cache-Control', 'no-store');
    c.header('Content-Type', 'text/html; charset=utf-8');
    return c.body(messagePage('Sign in to socialpub', ['Another site sent you here. Sign in only if you ran socialpub dashboard yourself.'], { action: c.req.path, label: 'Sign in' }), 200);
  });
  app.post('/link/:token', headers, async (c) => {
    if (!fromOwnOrigin(c, config)) throw new ApiError('csrf_failed', 'cross-site request refused: confirm the sign-in from the page the link opened');
    return consume(c, c.req.param('token'));
  });

  const limitSignin = bodyLimit({
    maxSize: MAX_SIGNIN_BODY,
    onError: () => {
      throw new ApiError('payload_too_large', `a sign-in body is at most ${MAX_SIGNIN_BODY} bytes`);
    },
  });
  app.post('/session', headers, limitSignin, async (c) => {
    // Login CSRF: only the sign-in page (our own origin) may open a session with a key.
    if (!fromOwnOrigin(c, config)) throw new ApiError('csrf_failed', 'cross-site request refused: sign in from the dashboard itself');
    const now = clock.now();
    const addr = address(c);
    const body = await readJsonObject(c);
    if (typeof body.api_key !== 'string' || body.api_key.length === 0 || body.api_key.length > 512) {
      throw new ApiError('invalid_request', 'api_key must be an API key (sp_<id>_<secret>)', [{ path: 'api_key', message: 'expected a string' }]);
    }
    // Counted as a key in a header is (auth-failures.ts): by address and by key id.
    const buckets = failureBuckets(c, addr, body.api_key.trim());
    refuseWhenSpent({ store, limits }, buckets, now);
    const check = store.apiKeys.verify(body.api_key.trim(), now);
    const user = check.ok ? store.users.get(check.userId) : null;
    if (!user) {
      countFailure({ store, limits }, buckets, now);
      const reason = !check.ok && (check.reason === 'revoked' || check.reason === 'rotated') ? `this API key was ${check.reason}` : 'invalid API key';
      throw new ApiError('unauthorized', reason);
    }
    // Sign-ins count in the user's authentication class (10 a minute by default), like POST /auth/validate.
    if (limits.enabled) {
      const { limit, windowMs } = limits.classes.auth;
      const take = store.commits.relaxed(() => store.rateWindows.take(user.id, 'auth', limit, windowMs, now));
      if (!take.allowed) throw rateLimitedError(RATE_CLASS_LABEL.auth, take.resetAt, now, limit, windowMs);
    }
    const keyId = check.ok ? check.keyId : null;
    const { token, session } = await store.commits.durable(() => store.dashboardSessions.createSession(user.id, now, keyId));
    setSessionCookie(c, config, token);
    c.header('Cache-Control', 'no-store');
    return c.json({ user: { id: user.id, email: user.email }, expires_at: formatInstant(session.expiresAt) }, 200);
  });

  app.get('/session', headers, (c) => {
    c.header('Cache-Control', 'no-store');
    const token = readSessionCookie(c);
    const now = clock.now();
    const session = token === undefined ? null : store.commits.relaxed(() => store.dashboardSessions.findSession(token, now));
    const user = session ? store.users.get(session.userId) : null;
    if (!session || !user) throw new ApiError('unauthorized', 'not signed in (no session, or it expired or was signed out)');
    return c.json(sessionBody(user, session), 200);
  });

  /** The cookie's live session and its user, else 401. */
  const signedIn = (c: Context) => {
    const token = readSessionCookie(c);
    const now = clock.now();
    const session = token === undefined ? null : store.commits.relaxed(() => store.dashboardSessions.findSession(token, now));
    const user = session ? store.users.get(session.userId) : null;
    if (!session || !user) throw new ApiError('unauthorized', 'not signed in (no session, or it expired or was signed out)');
    return { session, user, now };
  };

  // Settings lists the open sessions and ends them (docs/dashboard.md, "Sessions").
  app.get('/sessions', headers, (c) => {
    c.header('Cache-Control', 'no-store');
    const { session, user, now } = signedIn(c);
    const data = store.dashboardSessions.listSessions(user.id, now).map((s) => ({
      id: s.id,
      created_at: formatInstant(s.createdAt),
      last_seen_at: formatInstant(s.lastSeenAt),
      expires_at: formatInstant(s.expiresAt),
      signed_in_with: s.keyId === null ? ('link' as const) : ('key' as const),
      key_prefix: s.keyId === null ? null : (store.apiKeys.get(s.keyId)?.prefix ?? null),
      current: s.id === session.id,
    }));
    return c.json({ data }, 200);
  });

  app.delete('/sessions/:id', headers, async (c) => {
    c.header('Cache-Control', 'no-store');
    const { session, user } = signedIn(c);
    checkCsrf(c, config, session);
    const id = c.req.param('id');
    const ended = await store.commits.durable(() => store.dashboardSessions.endSession(user.id, id));
    if (!ended) throw new ApiError('not_found', `no open session ${id}`);
    if (id === session.id) clearSessionCookie(c, config);
    return c.body(null, 204);
  });

  app.post('/signout', headers, async (c) => {
    c.header('Cache-Control', 'no-store');
    const token = readSessionCookie(c);
    const now = clock.now();
    const session = token === undefined ? null : store.commits.relaxed(() => store.dashboardSessions.findSession(token, now));
    if (session && token !== undefined) {
      checkCsrf(c, config, session);
      await store.commits.durable(() => store.dashboardSessions.deleteSession(token));
    }
    clearSessionCookie(c, config);
    return c.body(null, 204);
  });

  return app;
}
