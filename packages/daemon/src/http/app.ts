import { API_PREFIX, ROUTES, type Platform, type RouteDecl } from '@socialpub/core';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RATE_CLASSES, type DaemonConfig, type RateClass } from '../config';
import type { PlatformAdapter } from '../platforms/adapter';
import type { MediaLookup } from '../ports/media';
import type { SchedulerHooks } from '../ports/scheduler';
import type { Store } from '../store/store';
import { isTransientConflict } from '../store/transient-conflict';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';
import { ServiceError } from '../util/service-error';
import type { AppServices, RouteDeps } from './deps';
import type { AppEnv } from './env';
import { mcpHandler } from '../mcp/mcp-endpoint';
import { originCheck } from '../mcp/origin-check';
import { ApiError } from './errors';
import { auth } from './middleware/auth';
import { sessionAuth } from './middleware/session-auth';
import { dashboardRoutes, reviewLinkPageRoutes } from './dashboard/dashboard-routes';
import type { DashboardFiles } from './dashboard/dashboard-files';
import { dashboardAuthRoutes } from './routes/dashboard-auth';
import { connectCallbackRoutes } from './dashboard/connect-callback';
import { connectionsHandlers } from './routes/connections';
import { keysHandlers } from './routes/keys';
import { publicReviewHandlers, reviewLinksHandlers } from './routes/review-links';
import { clientAddress } from './middleware/client-address';
import { bodyLimit } from './middleware/body-limit';
import { httpsOnly } from './middleware/https-only';
import { checkRateClasses, matchedRateClass, rateLimit } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { openApiDocument } from './openapi';
import { authHandlers } from './routes/auth';
import { contentHandlers } from './routes/content';
import { eventsHandlers } from './routes/events';
import { healthHandlers } from './routes/health';
import { inboxHandlers } from './routes/inbox';
import { platformsHandlers } from './routes/platforms';
import { honoPath, mountRoutes } from './route-table/mount-route';
import { tiktokCreatorInfoHandlers } from './routes/tiktok-creator-info';
import { sandboxFaultsHandlers } from './routes/sandbox-faults';
import { sandboxPostsHandlers } from './routes/sandbox-posts';
import { scheduledHandlers } from './routes/scheduled';
import { draftsHandlers } from './routes/drafts';
import { webhooksHandlers } from './routes/webhooks';
import { queueHandlers } from './routes/queue';
import { seriesHandlers } from './routes/series';
import { analyticsHandlers } from './routes/analytics';
import { settingsHandlers } from './routes/settings';

export interface AppDeps {
  config: DaemonConfig;
  clock: Clock;
  logger: RootLogger;
  /** The repositories: the only way to the database. */
  store: Store;
  scheduler: SchedulerHooks;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** The services the routes call, built by the composition root (compose.ts createServices()). */
  services: AppServices;
  /** Mounted at /api/agents/v1/media behind auth and the body limit (not on POST /upload); the module mounts its declared routes with their rate classes and Idempotency-Key (http/routes/media.ts). */
  mediaRoutes?: Hono<AppEnv>;
  /** Prepared files, mounted at /files, unauthenticated. */
  fileRoutes?: Hono;
  /** Platform simulators for sandbox connections, mounted at /sandbox, unauthenticated. */
  sandbox?: Hono;
  /** How the client address is found for the failed-authentication limit (default: socket, or X-Forwarded-For behind a proxy). */
  clientAddress?: (c: Context) => string;
  /** SSE heartbeat interval (ms of the clock). */
  heartbeatMs?: number;
  /** The dashboard's built files. Default: dashboardFiles() (the workspace build, the CLI bundle's copy or the executable's). */
  dashboardFiles?: () => DashboardFiles | null;
  /** Check every answer of a declared route against its schema, failing loudly (500) on a mismatch (tests; default off). */
  validateResponses?: boolean;
}

const declared: RouteDecl[] = Object.values(ROUTES);
/** Routes whose body is a raw upload (POST /media/upload, an extension): exempt from the JSON body limit. */
const UPLOAD_PATHS = new Set(declared.filter((r) => r.bodyKind === 'upload').map((r) => honoPath(r)));

/** Routes under the prefix that need no key. */
const PUBLIC_API_PATHS = new Set([...declared.filter((r) => r.auth === 'public' && !r.root).map((r) => honoPath(r))]);
/** The public side of review links: the token in the path is the credential (routes/review-links.ts). */
const PUBLIC_REVIEW_PREFIX = `${API_PREFIX}/review-links/public/`;

/**
 * The HTTP interface as a Hono app over its dependencies: no port, so tests call
 * `app.request()` directly. daemon.ts serves it.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const { clock, logger, config, store, scheduler, mediaLookup, adapters } = deps;
  const commits = store.commits;
  const { jobs, takedowns, analytics, calls, webhooks, hub } = deps.services;
  const routeDeps: RouteDeps = { store, clock, config, logger, scheduler, jobs, takedowns, analytics, mediaLookup, adapters, startedAt: clock.now() };
  const limits = config.rateLimits;

  const app = new Hono<AppEnv>();
  app.use('*', requestContext({ logger }));
  if (config.behindProxy) {
    const https = httpsOnly();
    // Exempt: a load balancer's health probe may come over plain HTTP, and the sandbox
    // simulators are called by the daemon's own adapters over loopback.
    const exempt = (path: string) => path === '/healthz' || path === `${API_PREFIX}/healthz` || path.startsWith('/sandbox/');
    app.use('*', (c, next) => (exempt(c.req.path) ? next() : https(c, next)));
  }

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    if (error instanceof ServiceError) {
      const api = ApiError.from(error);
      for (const [k, v] of Object.entries(api.extra.headers ?? {})) c.header(k, v);
      return c.json(api.body(requestId), api.status as 400);
    }
    if (error instanceof HTTPException && error.status < 500) {
      const mapped =
        error.status === 413
          ? new ApiError('payload_too_large', 'request body is larger than 10 MB')
          : error.status === 404
            ? new ApiError('not_found', 'not found')
            : new ApiError('invalid_request', error.message || 'invalid request');
      return c.json(mapped.body(requestId), mapped.status as 400);
    }
    if (isTransientConflict(error) || (error as { code?: unknown }).code === '55P03') {
      // PostgreSQL, several daemons: the request's transaction met another daemon's over the
      // same rows (a deadlock, a serialization failure, a lock held past lock_timeout) on
      // every try (store/commits.ts). It was rolled back: nothing was written.
      (c.get('log') ?? logger).warn('database conflict', { path: c.req.path, code: (error as { code?: unknown }).code });
      c.header('Retry-After', '1');
      return c.json(new ApiError('unavailable', 'the database broke off this request for a concurrent change (another daemon\'s) on every try; nothing was written: retry in a second', undefined, { retryAfter: 1 }).body(requestId), 503);
    }
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') {
      // Another writer (an admin command, a long migration) held the database past the busy
      // timeout: nothing was written; the client may simply try again.
      (c.get('log') ?? logger).warn('database busy', { path: c.req.path });
      c.header('Retry-After', '1');
      return c.json(new ApiError('unavailable', 'the database is busy; retry in a second', undefined, { retryAfter: 1 }).body(requestId), 503);
    }
    (c.get('log') ?? logger).error('unhandled error', { error: error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : String(error) });
    return c.json(new ApiError('internal', 'internal error; the request id identifies it in the daemon log').body(requestId), 500);
  });
  app.notFound((c) => c.json(new ApiError('not_found', `no route for ${c.req.method} ${c.req.path}`).body(c.get('requestId')), 404));

  // Unauthenticated: health, the OpenAPI document, prepared files, the sandbox simulators.
  // The routes declared in core's route table (routes/api-routes.ts), each with its handler:
  // health and this document unauthenticated, the rest behind the middleware below.
  const mounting = { store, clock, validateResponses: deps.validateResponses ?? false };
  mountRoutes(app, ROUTES, { ...healthHandlers(routeDeps), openapi: () => openApiDocument() as { openapi: string } }, mounting);
  if (deps.fileRoutes) app.route('/files', deps.fileRoutes);
  if (deps.sandbox) app.route('/sandbox', deps.sandbox);

  const addressOf = deps.clientAddress ?? ((c: Context) => clientAddress(c, config.behindProxy ? config.trustedProxyHops : 0));

  // The dashboard (docs/dashboard.md): its sign-in, its pages and assets, the review-link page.
  const dashboard = { store, clock, config, ...(deps.dashboardFiles ? { files: deps.dashboardFiles } : {}) };
  app.route('/auth', dashboardAuthRoutes({ store, clock, config, limits, address: addressOf }));
  app.route('/r', reviewLinkPageRoutes({ ...dashboard, address: addressOf }));
  const connects = deps.services.browserConnects;
  app.route('/connect', connectCallbackRoutes(connects));
  app.route('/', dashboardRoutes(dashboard));

  // Everything else under the prefix: key or session -> user, the user's limit for the class
  // the matched route declares (rateClass next to each route), then the body limit. A path
  // no route matches counts against nothing: it is a 404.
  const authenticate = auth({ store, commits, clock, limits, behindProxy: config.behindProxy, trustedProxyHops: config.trustedProxyHops, address: deps.clientAddress });
  const limiters = Object.fromEntries(
    RATE_CLASSES.filter((cls) => cls !== 'auth_failure').map((cls) => [cls, rateLimit(cls, { store, commits, clock, limits })]),
  ) as Record<RateClass, MiddlewareHandler<AppEnv>>;
  const limitBody = bodyLimit(config.maxBodyBytes);
  // A key header, or else the dashboard's session cookie (with CSRF checks on unsafe methods).
  const apiAuth = sessionAuth({ store, clock, config, keyAuth: authenticate });
  app.use(`${API_PREFIX}/*`, async (c, next) => {
    if (PUBLIC_API_PATHS.has(c.req.path) || c.req.path.startsWith(PUBLIC_REVIEW_PREFIX)) return next();
    const cls = matchedRateClass(c);
    // A person browsing the dashboard (session cookie) reads far more than an agent polls:
    // the session's reads of the scheduled-content class count in the account class.
    const limiterOf = (cls: RateClass) => limiters[cls === 'scheduled' && c.req.method === 'GET' && c.get('session') ? 'account' : cls];
    // An upload's body is a media file: the media cap applies to it (streamed to disk by the route), not the JSON limit.
    const inner = UPLOAD_PATHS.has(c.req.path) ? next : () => limitBody(c, next) as Promise<void>;
    return apiAuth(c, () => (cls ? limiterOf(cls)(c, inner) : inner()) as Promise<void>);
  });

  mountRoutes(
    app,
    ROUTES,
    {
      ...authHandlers(),
      ...contentHandlers(routeDeps),
      ...scheduledHandlers(routeDeps),
      ...settingsHandlers(routeDeps),
      ...platformsHandlers(routeDeps),
      ...tiktokCreatorInfoHandlers({ ...routeDeps, calls }),
      ...sandboxPostsHandlers(routeDeps),
      ...queueHandlers(routeDeps),
      ...seriesHandlers(routeDeps),
      ...analyticsHandlers(routeDeps),
      ...eventsHandlers({ ...routeDeps, hub, heartbeatMs: deps.heartbeatMs }),
      ...webhooksHandlers(webhooks),
      ...keysHandlers(routeDeps),
      ...connectionsHandlers({ ...routeDeps, connects }),
      ...reviewLinksHandlers(routeDeps),
      ...draftsHandlers(routeDeps),
      ...publicReviewHandlers({ ...routeDeps, limits, address: addressOf }),
      ...sandboxFaultsHandlers(routeDeps),
      ...inboxHandlers({ store, inbox: deps.services.inbox }),
    },
    mounting,
  );
  // MCP (Streamable HTTP): the same keys, and each tool call is the REST call it stands for,
  // made in-process, so it meets that call's rate-limit class and rules.
  const sessions = deps.services.mcpSessions;
  const inProcess = (path: string, init: RequestInit, address: string) => app.request(path, init, { incoming: { socket: { remoteAddress: address } } });
  const mcp = mcpHandler({ sessions, fetch: async (path, init, address) => inProcess(path, init, address), address: addressOf, hub, events: store.events });
  app.use('/mcp', originCheck({ publicUrl: config.publicUrl }), authenticate);
  app.on(['GET', 'POST', 'DELETE'], '/mcp', (c) => mcp(c, { keyId: c.get('keyId'), userId: c.get('user').id, scope: c.get('scope') }));

  // The media module's routes (declared in the route table; built by create-media.ts with their rate classes and Idempotency-Key).
  if (deps.mediaRoutes) app.route(`${API_PREFIX}/media`, deps.mediaRoutes);
  checkRateClasses(app.routes, API_PREFIX, (path) => PUBLIC_API_PATHS.has(path) || path.startsWith(PUBLIC_REVIEW_PREFIX));
  return app;
}
