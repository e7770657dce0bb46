import type { MiddlewareHandler } from 'hono';
import type { DaemonConfig } from '../../config';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import { checkCsrf, isUnsafeMethod, readSessionCookie } from '../dashboard/session-cookie';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

export interface SessionAuthOptions {
  store: Store;
  clock: Clock;
  config: DaemonConfig;
  /** The API-key authentication (auth.ts), used whenever a key header is present or no session cookie is. */
  keyAuth: MiddlewareHandler<AppEnv>;
}

/**
 * The dashboard's way in to the API: a request without a key header but with the
 * `sp_session` cookie acts as the session's user, as a Bearer key of that user would. A
 * key header, when present, wins (and the cookie is ignored). Unsafe methods with the
 * cookie need the session's CSRF token and a same-origin request (403 csrf_failed).
 */
export function sessionAuth({ store, clock, config, keyAuth }: SessionAuthOptions): MiddlewareHandler<AppEnv> {
  return async function sessionAuth(c, next) {
    const token = readSessionCookie(c);
    const keyHeader = c.req.header('authorization') !== undefined || c.req.header('x-api-key') !== undefined;
    if (keyHeader || token === undefined) return keyAuth(c, next);
    const now = clock.now();
    // Sliding the expiry is a write at most once a minute; a lost one costs a minute of session.
    const session = store.commits.relaxed(() => store.dashboardSessions.findSession(token, now));
    const user = session ? store.users.get(session.userId) : null;
    if (!session || !user) {
      throw new ApiError('unauthorized', 'the dashboard session expired or was signed out; sign in again', undefined, {
        headers: { 'WWW-Authenticate': 'Bearer realm="socialpub"' },
      });
    }
    if (isUnsafeMethod(c.req.method)) checkCsrf(c, config, session);
    c.set('user', user);
    c.set('keyId', `session:${session.id}`);
    // A person signed in to the dashboard may do what the user may: no route is above full.
    c.set('scope', 'full');
    c.set('session', session);
    return next();
  };
}
