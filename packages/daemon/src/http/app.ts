import { randomBytes } from 'node:crypto';
import { API_PREFIX, ROUTES, type Platform, type RouteDecl } from '@socialpub/core';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { RATE_CLASSES, type DaemonConfig, type RateClass } from '../config';
import { EventsHub } from '../events/events-hub';
import { createWebhooksService } from '../events/webhooks-service';
import { createJobsService } from '../jobs/jobs-service';
import { createTakedownService, type RemoverEntry } from '../jobs/takedown';
import type { HostResolver } from '../media/address-guard';
import type { PlatformAdapter } from '../platforms/adapter';
import { createAdapters, createRemovers } from '../platforms/registry';
import { guessingMediaLookup, idleScheduler, type MediaLookup, type SchedulerHooks } from '../services';
import type { DB } from '../store/database';
import { createStore, type Store } from '../store/store';
import { systemClock, type Clock } from '../util/clock';
import { silentLogger, type RootLogger } from '../util/logger';
import { SecretBox } from '../util/secrets';
import { ServiceError } from '../util/service-error';
import type { RouteDeps } from './deps';
import type { AppEnv } from './env';
import { mcpHandler } from '../mcp/mcp-endpoint';
import { feedMcpSessions } from '../mcp/mcp-event-feed';
import { McpSessions } from '../mcp/mcp-sessions';
import { originCheck } from '../mcp/origin-check';
import { ApiError } from './errors';
import { auth } from './middleware/auth';
import { sessionAuth } from './middleware/session-auth';
import { dashboardRoutes, reviewLinkPageRoutes } from './dashboard/dashboard-routes';
import type { DashboardFiles } from './dashboard/dashboard-files';
import { dashboardAuthRoutes } from './routes/dashboard-auth';
import { connectCallbackRoutes } from './dashboard/connect-callback';
import { BrowserConnects } from '../connect/browser-connect';
import type { ConnectDeps } from '../platforms/platform-module';
import { platformModule } from '../platforms/registry';
import { connectionsHandlers } from './routes/connections';
import { keysHandlers } from './routes/keys';
import { publicReviewHandlers, reviewLinksHandlers } from './routes/review-links';
import { clientAddress } from './middleware/client-address';
import { bodyLimit } from './middleware/body-limit';
import { httpsOnly } from './middleware/https-only';
import { idempotency } from './middleware/idempotency';
import { checkRateClasses, matchedRateClass, rateLimit } from './middleware/rate-limit';
import { requestContext } from './middleware/request-context';
import { openApiDocument } from './openapi';
import { authRoutes } from './routes/auth';
import { contentRoutes } from './routes/content';
import { eventsHandlers } from './routes/events';
import { healthRoutes } from './routes/health';
import { platformsHandlers } from './routes/platforms';
import { honoPath, mountRoutes } from './route-table/mount-route';
import { tiktokCreatorInfoRoutes } from './routes/tiktok-creator-info';
import type { ConnectionCallDeps } from '../platforms/connection-call';
import { sandboxFaultsHandlers } from './routes/sandbox-faults';
import { sandboxPostsRoutes } from './routes/sandbox-posts';
import { scheduledRoutes } from './routes/scheduled';
import { webhooksHandlers } from './routes/webhooks';
import { queueHandlers } from './routes/queue';
import { seriesHandlers } from './routes/series';
import { settingsHandlers } from './routes/settings';

export interface AppDeps {
  db: DB;
  config: DaemonConfig;
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: silent. */
  logger?: RootLogger;
  /** Opens connection secrets. Default: a throwaway key (the HTTP layer never opens secrets itself). */
  secrets?: SecretBox;
  /** Repositories over `db`; built here with config.sqliteSync when not given (give it to share prepared statements and commits with other parts). */
  store?: Store;
  /** Default: idleScheduler. */
  scheduler?: SchedulerHooks;
  /** Default: guessingMediaLookup (kinds from URL extensions). */
  mediaLookup?: MediaLookup;
  /** Default: createAdapters(config.platforms). */
  adapters?: Map<Platform, PlatformAdapter>;
  /** Take-down support per platform. Default: createRemovers(config.platforms). */
  removers?: Map<Platform, RemoverEntry>;
  /** Mounted at /api/agents/v1/media behind auth, the media rate limit, the body limit (not on POST /upload) and Idempotency-Key on POST /prepare. */
  mediaRoutes?: Hono<AppEnv>;
  /** Prepared files, mounted at /files, unauthenticated. */
  fileRoutes?: Hono;
  /** Platform simulators for sandbox connections, mounted at /sandbox, unauthenticated. */
  sandbox?: Hono;
  /** Where a sandbox connection's simulator answers for `host` (the daemon's own URL), for calls outside a publish: take-downs and the account checks at acceptance (TikTok's creator info); default: none served. */
  sandboxBaseUrl?: (platform: Platform, host: string) => string;
  /** How the client address is found for the failed-authentication limit (default: socket, or X-Forwarded-For behind a proxy). */
  clientAddress?: (c: Context) => string;
  /** Wakes SSE streams on new events. Default: a hub of its own (not started: tests call check()). */
  hub?: EventsHub;
  /** Told when a webhook delivery was queued (the deliverer's pump). */
  webhookQueued?: () => void;
  /** Resolves webhook host names (tests). */
  webhookResolve?: HostResolver;
  /** SSE heartbeat interval (ms of the clock). */
  heartbeatMs?: number;
  /** The MCP endpoint's open sessions (default: a new set; the daemon closes them at shutdown). */
  mcpSessions?: McpSessions;
  /** The dashboard's built files. Default: dashboardFiles() (the workspace build, the CLI bundle's copy or the executable's). */
  dashboardFiles?: () => DashboardFiles | null;
  /** Live connects started from the dashboard (default: a set of its own over store.connections and the real platform hosts; the daemon closes it at shutdown). */
  browserConnects?: BrowserConnects;
  /** For the default browserConnects: where the platforms are (tests point them at the simulators). */
  connectDeps?: Omit<ConnectDeps, 'connections'>;
  /** Check every answer of a declared route against its schema, failing loudly (500) on a mismatch (tests; default off). */
  validateResponses?: boolean;
}

const declared: RouteDecl[] = Object.values(ROUTES);
/** Routes whose body is a raw upload (POST /media/upload, an extension): exempt from the JSON body limit. */
const UPLOAD_PATHS = new Set(declared.filter((r) => r.bodyKind === 'upload').map((r) => honoPath(r)));

/** Routes under the prefix that need no key. */
const PUBLIC_API_PATHS = new Set([`${API_PREFIX}/openapi.json`, ...declared.filter((r) => r.auth === 'public' && !r.root).map((r) => honoPath(r))]);
/** The public side of review links: the token in the path is the credential (routes/review-links.ts). */
const PUBLIC_REVIEW_PREFIX = `${API_PREFIX}/review-links/public/`;

/**
 * The HTTP interface as a Hono app over its dependencies: no port, so tests call
 * `app.request()` directly. daemon.ts serves it.
 */
export function createApp(deps: AppDeps): Hono<AppEnv> {
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? silentLogger;
  const config = deps.config;
  const secrets = deps.secrets ?? new SecretBox(randomBytes(32));
  const store = deps.store ?? createStore(deps.db, { secrets, clock, sync: config.sqliteSync });
  const scheduler = deps.scheduler ?? idleScheduler;
  const commits = store.commits;
  const mediaLookup = deps.mediaLookup ?? guessingMediaLookup;
  const adapters = deps.adapters ?? createAdapters(config.platforms);
  const jobs = createJobsService({
    store,
    clock,
    logger,
    scheduler,
    mediaLookup,
    adapters,
    publicBaseUrl: config.publicUrl,
    ...(deps.sandboxBaseUrl ? { sandboxBaseUrl: deps.sandboxBaseUrl } : {}),
  });
  const removers = deps.removers ?? createRemovers(config.platforms);
  // Calls on a connection's behalf outside a publish (take-downs, TikTok creator info).
  const calls: ConnectionCallDeps = { connections: store.connections, clock, logger, sandboxBaseUrl: deps.sandboxBaseUrl ?? null };
  const routeDeps: RouteDeps = {
    store,
    clock,
    config,
    logger,
    scheduler,
    jobs,
    takedowns: createTakedownService({ store, clock, logger, jobs, removers, calls }),
    mediaLookup,
    adapters,
    startedAt: clock.now(),
  };
  const limits = config.rateLimits;
  const hub = deps.hub ?? new EventsHub(store.events, logger);
  const webhooks = createWebhooksService({
    store,
    clock,
    secrets,
    policy: { allowPrivate: config.webhookAllowPrivate, ...(deps.webhookResolve ? { resolve: deps.webhookResolve } : {}) },
    queued: deps.webhookQueued,
  });

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
  app.route('/healthz', healthRoutes(routeDeps));
  app.route(`${API_PREFIX}/healthz`, healthRoutes(routeDeps));
  app.get(`${API_PREFIX}/openapi.json`, (c) => c.json(openApiDocument(), 200));
  if (deps.fileRoutes) app.route('/files', deps.fileRoutes);
  if (deps.sandbox) app.route('/sandbox', deps.sandbox);

  const addressOf = deps.clientAddress ?? ((c: Context) => clientAddress(c, config.behindProxy ? config.trustedProxyHops : 0));

  // The dashboard (docs/dashboard.md): its sign-in, its pages and assets, the review-link page.
  const dashboard = { store, clock, config, ...(deps.dashboardFiles ? { files: deps.dashboardFiles } : {}) };
  app.route('/auth', dashboardAuthRoutes({ store, clock, config, limits, address: addressOf }));
  app.route('/r', reviewLinkPageRoutes(dashboard));
  const connects = deps.browserConnects ?? new BrowserConnects({ clock, deps: { clock, ...deps.connectDeps, connections: store.connections }, connector: (p) => platformModule(p)?.connect });
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

  // The routes declared in core's route table (routes/api-routes.ts), each with its handler.
  const mounting = { store, clock, validateResponses: deps.validateResponses ?? false };
  mountRoutes(app, ROUTES, { ...settingsHandlers(routeDeps), ...platformsHandlers(routeDeps) }, mounting);
  // The extensions (core's routes/extension-routes.ts).
  mountRoutes(
    app,
    ROUTES,
    {
      ...queueHandlers(routeDeps),
      ...seriesHandlers(routeDeps),
      ...eventsHandlers({ ...routeDeps, hub, heartbeatMs: deps.heartbeatMs }),
      ...webhooksHandlers(webhooks),
      ...keysHandlers(routeDeps),
      ...connectionsHandlers({ ...routeDeps, connects }),
      ...reviewLinksHandlers(routeDeps),
      ...publicReviewHandlers({ ...routeDeps, limits, address: addressOf }),
      ...sandboxFaultsHandlers(routeDeps),
    },
    mounting,
  );
  app.route(`${API_PREFIX}/auth`, authRoutes());
  app.route(`${API_PREFIX}/content`, contentRoutes(routeDeps));
  app.route(`${API_PREFIX}/content/scheduled`, scheduledRoutes(routeDeps));
  app.route(`${API_PREFIX}/platforms/tiktok/creator-info`, tiktokCreatorInfoRoutes({ ...routeDeps, calls }));
  app.route(`${API_PREFIX}/sandbox`, sandboxPostsRoutes(routeDeps));
  // MCP (Streamable HTTP): the same keys, and each tool call is the REST call it stands for,
  // made in-process, so it meets that call's rate-limit class and rules.
  const sessions = deps.mcpSessions ?? new McpSessions({ clock, maxBodyBytes: config.maxBodyBytes });
  // Resource notifications for every change, from the outbox (ends with the hub).
  feedMcpSessions({ hub, events: store.events, sessions });
  const inProcess = (path: string, init: RequestInit, address: string) => app.request(path, init, { incoming: { socket: { remoteAddress: address } } });
  const mcp = mcpHandler({ sessions, fetch: async (path, init, address) => inProcess(path, init, address), address: addressOf });
  app.use('/mcp', originCheck({ publicUrl: config.publicUrl }), authenticate);
  app.on(['GET', 'POST', 'DELETE'], '/mcp', (c) => mcp(c));

  if (deps.mediaRoutes) {
    const idem = idempotency({ store, clock, route: 'media.prepare' });
    app.use(`${API_PREFIX}/media/prepare`, (c, next) => (c.req.method === 'POST' ? idem(c, next) : next()));
    app.route(`${API_PREFIX}/media`, deps.mediaRoutes);
  }
  checkRateClasses(app.routes, API_PREFIX, (path) => PUBLIC_API_PATHS.has(path) || path.startsWith(PUBLIC_REVIEW_PREFIX));
  return app;
}
