import { rateLimitedMessage } from '@socialpub/core';
import { Hono, type Context } from 'hono';
import type { DaemonConfig } from '../../config';
import type { Store } from '../../store/store';
import type { Clock } from '../../util/clock';
import { dashboardFiles, safeRelativePath, type DashboardFiles } from './dashboard-files';
import { countFailure, spentWindow, tokenGuessBuckets } from '../middleware/auth-failures';
import { secondsUntil } from '../middleware/rate-limit';
import { messagePage } from './message-page';
import { securityHeaders } from './security-headers';
import { readSessionCookie } from './session-cookie';

/** The signed-in app's paths (index.html; the app routes on the client). Their subpaths are the app's too. */
export const APP_PATHS = ['/review', '/calendar', '/compose', '/posts', '/inbox', '/analytics', '/connections', '/settings'] as const;

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json; charset=utf-8',
  map: 'application/json; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  woff: 'font/woff',
  woff2: 'font/woff2',
  txt: 'text/plain; charset=utf-8',
  webmanifest: 'application/manifest+json',
};

export const contentTypeOf = (name: string) => TYPES[name.slice(name.lastIndexOf('.') + 1).toLowerCase()] ?? 'application/octet-stream';

/**
 * A build's content-hashed file name (Vite's `name-<8 base64url>.ext`, e.g.
 * `styles-nzP1PD-m.css`; esbuild's `name-<HASH>.ext`): its bytes never change, so it is
 * cached for a year. The hash has a digit or a capital: `my-filename.css` is no hash.
 */
const HASHED = /-(?=[A-Za-z0-9_-]*[A-Z0-9])[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

export interface DashboardRoutesDeps {
  store: Store;
  clock: Clock;
  config: DaemonConfig;
  /** Default: dashboardFiles() (the workspace build, the bundle's copy or the executable's). */
  files?: () => DashboardFiles | null;
}

const html = (c: Context, body: string | Uint8Array, status: 200 | 404 | 410 | 429 | 503 = 200) => {
  c.header('Cache-Control', 'no-store');
  c.header('Content-Type', 'text/html; charset=utf-8');
  return c.body(body as string, status);
};

/**
 * The dashboard's pages and assets on the daemon's own origin (docs/dashboard.md): the app
 * (index.html) only with a session, else 303 to /signin; the sign-in page always; the
 * review-link page only for a live link; assets by exact name. Every answer carries the
 * security headers.
 */
export function dashboardRoutes(deps: DashboardRoutesDeps) {
  const { store, clock } = deps;
  const filesOf = deps.files ?? dashboardFiles;
  const notBuilt = (c: Context) =>
    html(c, messagePage('Dashboard not built', ['This socialpub build carries no dashboard (packages/dashboard/dist was missing when it was built). The API works as usual.']), 503);

  const page = (c: Context, name: string) => {
    const files = filesOf();
    if (!files) return notBuilt(c);
    const bytes = files.read(name);
    if (!bytes) return notBuilt(c);
    return html(c, bytes);
  };

  const signedIn = (c: Context) => {
    const token = readSessionCookie(c);
    if (token === undefined) return false;
    const now = clock.now();
    const session = store.commits.relaxed(() => store.dashboardSessions.findSession(token, now));
    return session !== null && store.users.get(session.userId) !== null;
  };

  // Mounted at the root: the headers middleware goes on each route, not on '*' (which would cover the API too).
  const headers = securityHeaders();
  const app = new Hono();
  const appPage = (c: Context) => (signedIn(c) ? page(c, 'index.html') : c.redirect('/signin', 303));
  app.get('/', headers, appPage);
  for (const path of APP_PATHS) {
    app.get(path, headers, appPage);
    app.get(`${path}/*`, headers, appPage);
  }
  app.get('/signin', headers, (c) => page(c, 'signin.html'));
  app.get('/assets/*', headers, (c) => {
    const rel = safeRelativePath(c.req.path.slice('/assets/'.length));
    const files = filesOf();
    const bytes = rel && files ? files.read(`assets/${rel}`) : null;
    if (!rel || !bytes) {
      c.header('Cache-Control', 'no-store');
      return c.text('not found', 404);
    }
    c.header('Content-Type', contentTypeOf(rel));
    c.header('Cache-Control', HASHED.test(rel) ? 'public, max-age=31536000, immutable' : 'no-cache');
    return c.body(bytes as unknown as string, 200);
  });
  return app;
}

/** GET /r/{token}: the review-link page for a live link, else a page that says nothing about the link. Not indexed. */
export function reviewLinkPageRoutes(deps: DashboardRoutesDeps & { address: (c: Context) => string }) {
  const { store, clock } = deps;
  const filesOf = deps.files ?? dashboardFiles;
  const app = new Hono();
  app.get('/:token', securityHeaders({ noindex: true }), (c) => {
    // Unknown tokens are counted as the API counts them (GET /review-links/public/{token}): a guess is a guess.
    const now = clock.now();
    const buckets = tokenGuessBuckets(c, deps.address(c));
    const spent = spentWindow({ store, limits: deps.config.rateLimits }, buckets, now);
    if (spent) {
      const retryAfter = secondsUntil(spent.resetAt, now);
      c.header('Retry-After', String(retryAfter));
      return html(c, messagePage('Too many tries', [`${rateLimitedMessage(spent.bucket.what, spent.limit, spent.windowMs, retryAfter)}.`]), 429);
    }
    const open = store.reviewLinks.open(c.req.param('token'), now);
    if (!open.ok && open.reason === 'unknown') countFailure({ store, limits: deps.config.rateLimits }, buckets, now);
    if (!open.ok) return html(c, messagePage('Review link not found', ['This review link does not exist, has expired or was revoked. Ask the person who sent it for a new one.']), 404);
    const bytes = filesOf()?.read('review-link.html');
    if (!bytes) return html(c, messagePage('Dashboard not built', ['This socialpub build carries no dashboard.']), 503);
    return html(c, bytes);
  });
  return app;
}
