import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { ConfigError, isLoopback, type DaemonConfig } from './config';
import { createEvents } from './events/create-events';
import { createApp } from './http/app';
import { createServices } from './compose';
import { answerClientError, answerConnect } from './http/client-error';
import { createMedia } from './create-media';
import type { AppEnv } from './http/env';
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from './platforms/adapter';
import { createAdapters } from './platforms/registry';
import { publisherConcurrencyOptions } from './publish-concurrency';
import { createPublishing } from './publisher/create-publishing';
import { createSandbox, SANDBOX_ENDPOINTS_KEY, SANDBOX_HTTPS_ENDPOINTS_KEY, sandboxBaseUrl } from './platforms/sandbox';
import { sandboxCertificate } from './platforms/sandbox-tls';
import { startSandboxOrigins, type SandboxEndpoints } from './platforms/sandbox-origins';
import { logSandboxFault } from './platforms/sandbox/fault-stage';
import { sandboxProxy } from './platforms/sandbox/sandbox-proxy';
import { startSandboxProcess, type SandboxProcess, type SandboxServing, type SelfCommand } from './platforms/sandbox/sandbox-process';
import { TokenRefreshLoop } from './connect/token-refresh-loop';
import { startLeadership, type Leadership } from './cluster/leadership';
import { startPresence, type Presence } from './cluster/presence';
import { newLeaseOwner } from './publisher/lease-owner';
import { dialectOf, type PostgresDatabase } from './store/postgres/pg-database';
import { VERSION } from '@socialpub/core';
import type { MediaLookup } from './ports/media';
import type { SchedulerHooks } from './ports/scheduler';
import { startCheckpointer } from './store/checkpointer';
import { openDatabase } from './store/database';
import { createTargetQueue } from './store/target-queue';
import { openSandboxReader, sandboxDbPath } from './store/sandbox-database';
import { daemonReadsOver, type SandboxStore } from './store/sandbox-store';
import { secureDataDir } from './store/private-files';
import { createStore, type Store } from './store/store';
import { startSeriesMaterializer } from './jobs/recurrence';
import { systemClock, type Clock } from './util/clock';
import { createLogger, type RootLogger } from './util/logger';
import { guardProcess } from './util/process-guard';
import { SecretBox } from './util/secrets';
import type { HostResolver } from './net/address-guard';

export interface StartOptions {
  /** Default: the system clock. */
  clock?: Clock;
  /** Default: JSON lines to stderr at config.logLevel. */
  logger?: RootLogger;
  /** The platform adapters. Default: the real ones (platforms/registry.ts); tests give the test adapter. */
  adapters?: Map<Platform, PlatformAdapter>;
  /**
   * Default true: SSE streams and webhook deliveries wake as soon as this process commits
   * an event. false leaves only the hub's 20 ms poll of the outbox (bench/events measures both).
   */
  eventsNotify?: boolean;
  /** Resolves webhook host names (route checks and deliveries). Default: the system resolver; tests map names to chosen addresses. */
  webhookResolve?: HostResolver;
  /**
   * Default true: an uncaught exception or unhandled rejection is logged and the daemon
   * keeps serving (util/process-guard.ts) until close().
   */
  guardProcess?: boolean;
  /**
   * Run the simulators in a process of their own, this command with `sandbox serve`
   * (the CLI's `daemon run` gives `socialpub` itself): a busy sandbox then takes nothing
   * from the publisher's event loop. Default: in this process (tests, whose clock the
   * simulators share).
   */
  sandboxProcess?: SelfCommand;
}

export interface DaemonHandle {
  /** e.g. http://127.0.0.1:8787 */
  url: string;
  port: number;
  store: Store;
  app: Hono<AppEnv>;
  /** Where the simulators run: `process` (their own, `pid`; restarted if it dies) or `in-process`; `url` serves `/sandbox/<host>/...`. */
  sandbox: { mode: 'process' | 'in-process'; readonly url: string; readonly pid: number | null; readonly restarts: number };
  /** Stops accepting requests, stops the background parts, closes the database. Idempotent. */
  close(): Promise<void>;
}

/** Old rate windows and idempotency records are dropped this often. */
const MAINTENANCE_MS = 10 * 60_000;

/**
 * The composition root: config -> store -> (scheduler, publisher, media, sandbox) -> HTTP.
 * Each part registers what to stop in `stops`, which close() runs in reverse order.
 * SIGINT/SIGTERM are the caller's (the CLI's `daemon run`): it calls close().
 */
export async function startDaemon(config: DaemonConfig, opts: StartOptions = {}): Promise<DaemonHandle> {
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger({ level: config.logLevel, now: () => clock.now() });
  const stops: (() => void | Promise<void>)[] = [];
  // resolveConfig checks this too; a hand-built config must not slip past it.
  if (!isLoopback(config.host) && !config.tls && !config.behindProxy) {
    throw new ConfigError(`refusing to listen on ${config.host} without TLS or --behind-proxy`);
  }

  if (!config.rateLimits.enabled) {
    logger.warn('RATE LIMITS ARE OFF (SOCIALPUB_RATE_LIMITS=off): no request is counted or refused; use this for benchmarks only', {
      rate_limits: 'off',
    });
  }

  if (config.sqliteSync === 'normal') {
    logger.warn('SOCIALPUB_SQLITE_SYNC=normal: accepted requests are answered before they reach the disk; a power loss can drop the last ones', {
      sqlite_sync: 'normal',
    });
  }

  // Store. The data dir and everything in it private first (0700 / 0600), also when it existed.
  secureDataDir(config.dataDir);
  const db = openDatabase(config.dbPath);
  stops.push(() => void db.close());
  // WAL checkpoints on a thread of their own, not inside some request's commit.
  const checkpointer = startCheckpointer(db, { log: logger });
  stops.push(() => checkpointer.stop());
  const secrets = SecretBox.fromKeyFile(config.secretKeyPath);
  // The simulators: their own process (the daemon's by default), else served from here.
  // Their own process keeps its data in sandbox.db beside this database and only reads this
  // one; the daemon reads theirs (GET /sandbox/posts) over a read-only connection.
  let sandboxChild: SandboxProcess | null = null;
  let sandboxView: SandboxStore | undefined;
  // Where the process serves each host, recorded here too once the store exists (each restart).
  let recordOrigins: (served: SandboxServing) => void = () => undefined;
  if (opts.sandboxProcess) {
    try {
      sandboxChild = await startSandboxProcess({
        command: opts.sandboxProcess,
        dataDir: config.dataDir,
        // The simulators' process finds the same database however this daemon was told of it.
        ...(config.databaseUrl ? { env: { ...process.env, SOCIALPUB_DATABASE_URL: config.databaseUrl } } : {}),
        log: logger,
        faults: config.sandboxFaults ?? {},
        onServing: (served) => recordOrigins(served),
      });
      const child = sandboxChild;
      stops.push(() => child.close());
      const reader = openSandboxReader(sandboxDbPath(config.dataDir, config.dbPath), daemonReadsOver(db));
      if (!reader) throw new Error(`the sandbox process left no ${sandboxDbPath(config.dataDir, config.dbPath)}`);
      stops.push(() => reader.close());
      sandboxView = reader.store;
    } catch (e) {
      for (const stop of stops.reverse()) await stop();
      throw e;
    }
  }
  // Durable, group-committed writes for accepted requests (SOCIALPUB_SQLITE_SYNC).
  const store = createStore(db, { secrets, clock, sync: config.sqliteSync, ...(sandboxView ? { sandbox: sandboxView } : {}) });
  stops.push(() => store.commits.close());
  // Several daemons over one PostgreSQL database: one of them leads the once-per-database
  // work (token refresh, webhook deliveries, retention, recurring posts, housekeeping); on
  // SQLite this daemon does (cluster/leadership.ts).
  const leadership: Leadership = startLeadership(db, {
    onError: (error) => logger.warn('leadership check failed', { error }),
    onLost: () => {
      logger.error('lost the lead to another daemon after a reconnect: stopping (a supervisor starts it again as a follower)', {});
      process.kill(process.pid, 'SIGTERM');
    },
  });
  stops.push(() => leadership.stop());
  if (sandboxChild) {
    const record = (served: SandboxServing) => {
      store.settings.set('global', SANDBOX_ENDPOINTS_KEY, served.endpoints);
      store.settings.set('global', SANDBOX_HTTPS_ENDPOINTS_KEY, served.https_endpoints);
    };
    const first = sandboxChild.serving;
    if (first) record(first);
    recordOrigins = (served) => store.commits.relaxed(() => record(served));
  }
  const adapters = opts.adapters ?? createAdapters(config.platforms);

  // Media preparation: prepared URLs live under the public URL, else the listen address (known once listening).
  let listenUrl = `http://${config.host}:${config.port}`;
  // With TLS on, the adapters reach the simulators over a loopback-only plain-HTTP listener:
  // they would (rightly) refuse the daemon's own certificate, often self-signed.
  let sandboxUrl: string | null = null;
  const media = createMedia({
    store,
    dir: config.mediaDir,
    publicBaseUrl: () => config.publicUrl ?? listenUrl,
    clock,
    log: logger,
    allowPrivate: config.mediaAllowPrivate,
    maxBytes: config.mediaMaxBytes,
  });
  stops.push(() => media.stop());
  const mediaLookup: MediaLookup = media.lookup;
  const mediaRoutes: Hono<AppEnv> | undefined = media.mediaRoutes;
  const fileRoutes: Hono | undefined = media.fileRoutes;
  const onFault = logSandboxFault(logger);
  const sandboxParts = sandboxChild ? null : createSandbox({ store: store.sandbox, clock }, undefined, { faults: () => config.sandboxFaults ?? {}, onFault });
  const sandbox: Hono | undefined = sandboxChild ? sandboxProxy(() => sandboxChild.url) : sandboxParts!.app;
  // Where the adapters reach the simulators: the process's own loopback URL, else this daemon (or its TLS-free loopback listener).
  const simulatorsUrl = () => (sandboxChild ? sandboxChild.url : (sandboxUrl ?? listenUrl));
  // A simulated host's base URL for the adapters: its own origin in the simulators' process
  // (as each platform is an origin of its own, so each has its own pool of sockets: 256 in
  // all for three platforms at one origin made a 3,000-post burst wait on sockets), else
  // `<simulators>/sandbox/<host>`.
  const simulatedHost = (host: string) => sandboxChild?.serving?.endpoints[host] ?? sandboxBaseUrl(simulatorsUrl(), host);
  // This daemon's share of the due targets among the daemons over the database, from its
  // heartbeat (presence, started below); none until then.
  let presence: Presence | null = null;
  // Scheduler and publisher: started once listening (sandbox URLs need the port), stopped before the store closes.
  const publishing = createPublishing({
    queue: createTargetQueue(db),
    commits: store.commits,
    clock,
    adapters,
    connections: store.credentials,
    media: media.resolver,
    log: logger,
    publisher: {
      publicBaseUrl: config.publicUrl,
      sandboxBaseUrl: (_platform, host) => simulatedHost(host),
      share: () => presence?.share() ?? null,
      ...publisherConcurrencyOptions(config.publishConcurrency),
    },
  });
  const scheduler: SchedulerHooks = publishing.hooks;
  // Events: the outbox's hub (SSE), webhook deliveries, retention.
  const events = createEvents({
    store,
    secrets,
    clock,
    logger,
    config,
    ...(opts.eventsNotify === false ? { notify: false } : {}),
    ...(opts.webhookResolve ? { resolve: opts.webhookResolve } : {}),
  });
  const tokenRefresher = new TokenRefreshLoop({
    // The connections to look at; their secrets through the credentials service.
    connections: { list: store.connections.list, ...store.credentials },
    clock,
    log: logger,
    onRefreshFailed: (conn, error, willRetry) => store.commits.relaxed(() => store.events.refreshFailed(conn.id, error, willRetry, clock.now())),
  });
  leadership.whenLeader(() => tokenRefresher.start());
  stops.push(() => tokenRefresher.stop());

  // From here on, work resumed from the last run (media tasks, targets, deliveries) runs;
  // whatever it throws uncaught is logged, and the daemon keeps serving requests.
  if (opts.guardProcess !== false) stops.push(guardProcess(logger));

  // The services behind the HTTP interface (compose.ts); connects started from the dashboard end with the daemon.
  const services = createServices({
    store,
    config,
    clock,
    logger,
    secrets,
    scheduler,
    mediaLookup,
    adapters,
    sandboxBaseUrl: (_platform, host) => simulatedHost(host),
    // The analytics collector waits while a connection's publishing has the floor.
    publishingBusy: (userId, platform, connectionId) => publishing.publisher.connectionBusy(userId, platform, connectionId),
    // ... and its schedule waits while this daemon's publisher has any target waiting or in flight (a burst).
    publishingBacklog: () => publishing.publisher.busy,
    hub: events.hub,
    // The leader delivers webhooks (each once); the others' events reach it through the outbox.
    webhookQueued: () => {
      if (leadership.leader) events.deliverer.pump();
    },
    ...(opts.webhookResolve ? { webhookResolve: opts.webhookResolve } : {}),
  });
  stops.push(() => services.browserConnects.close());
  // The inbox's loop (comments on the decaying schedule, replies left sending by the last run first): started once listening, like the publisher.
  stops.push(() => services.inbox.stop());
  // HTTP: createApp only wires the routes over them.
  const app = createApp({ store, config, clock, logger, scheduler, mediaLookup, adapters, services, mediaRoutes, fileRoutes, sandbox });
  const server: ServerType = serve({
    fetch: app.fetch,
    hostname: config.host,
    port: config.port,
    ...(config.tls
      ? { createServer: createHttpsServer, serverOptions: { cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) } }
      : {}),
  });
  // Requests Node's parser refuses (bad Content-Length, CL+TE, huge headers) get the one error body too.
  server.on('clientError', answerClientError(logger));
  // CONNECT (a proxy tunnel) too; Node would close its socket without a word.
  server.on('connect', answerConnect(logger));
  try {
    await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e))]);
  } catch (e) {
    for (const stop of stops.reverse()) await stop();
    throw e;
  }
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `${config.tls ? 'https' : 'http'}://${hostInUrl}:${port}`;
  // Calls the daemon makes to itself (sandbox simulators) and the fallback base of prepared
  // URLs: a wildcard listen address is not an address to connect to, loopback is.
  const selfHost = config.host === '0.0.0.0' ? '127.0.0.1' : config.host === '::' ? '[::1]' : hostInUrl;
  listenUrl = `${config.tls ? 'https' : 'http'}://${selfHost}:${port}`;
  if (config.tls && sandboxParts) {
    const internal = await listenForSandbox(sandbox);
    stops.push(internal.close);
    sandboxUrl = internal.url;
  }
  // Each simulated host at a loopback origin of its own (the ports of the last run when free), for any client.
  try {
    // The simulators' process serves (and records) these itself.
    if (sandboxParts) await serveOrigins(sandboxParts);
  } catch (e) {
    server.close();
    for (const stop of stops.reverse()) await stop();
    throw e;
  }
  async function serveOrigins(parts: { app: Hono; hosts: string[] }) {
    const origins = await startSandboxOrigins(parts.app, parts.hosts, {
      previous: store.settings.get<SandboxEndpoints>('global', SANDBOX_ENDPOINTS_KEY) ?? {},
      previousHttps: store.settings.get<SandboxEndpoints>('global', SANDBOX_HTTPS_ENDPOINTS_KEY) ?? {},
      tls: await sandboxCertificate(config.dataDir),
    });
    stops.push(() => origins.close());
    store.settings.set('global', SANDBOX_ENDPOINTS_KEY, origins.endpoints);
    store.settings.set('global', SANDBOX_HTTPS_ENDPOINTS_KEY, origins.httpsEndpoints);
  }
  await media.start(); // resumes unfinished tasks, starts the 24 h sweeper
  await publishing.start(); // reconciles what a previous run left in flight, then fires overdue targets in due order
  stops.push(() => publishing.stop(10_000));
  events.start(); // the event streams of this daemon
  stops.push(() => events.stop());
  // PostgreSQL: targets scheduled (or again scheduled) by any daemon go into this one's wheel
  // at once (migration 205's NOTIFY); the claim decides who publishes each.
  if (dialectOf(db) === 'postgres') {
    const unlisten = (db as unknown as PostgresDatabase).listen('socialpub_targets', (payload) => {
      try {
        scheduler.targetsChanged(JSON.parse(payload) as string[]);
      } catch (error) {
        logger.warn('could not take in targets another daemon scheduled', { error });
      }
    });
    stops.push(unlisten);
  }
  let series: { stop(): void } | null = null;
  leadership.whenLeader(() => {
    events.lead(); // delivers what a previous run left pending, and prunes past retention
    // Recurring posts: occurrences get their jobs as they enter the horizon (jobs/recurrence.ts).
    series = startSeriesMaterializer({ store, clock, log: logger, targetsChanged: (ids) => scheduler.targetsChanged(ids) });
    // The inbox's loop (comments on their schedule; replies queued, or left sending by a stopped daemon): one daemon of a cluster sends them.
    services.inbox.start();
    // Figures of published posts at 1 h, 24 h, 72 h, 7 d and 30 d (analytics/collector.ts), read once for the cluster,
    // yielding to publishing (this daemon's publisher, and in SQL every daemon's publishes in flight or due).
    services.collector.start();
  });
  stops.push(() => series?.stop());
  stops.push(() => services.collector.stop());

  // Housekeeping (the leader's): expired rate windows and idempotency records.
  const maintenance = setInterval(() => {
    if (!leadership.leader) return;
    const now = clock.now();
    try {
      // Deletes of what has expired: lost to a power failure, they are made again next time,
      // so no fsync of their own on the event loop (store/commits.ts `relaxed`).
      store.commits.relaxed(() => {
        for (const [cls, l] of Object.entries(config.rateLimits.classes)) store.rateWindows.prune(cls, l.windowMs, now);
        store.idempotency.prune(now);
        store.dashboardSessions.prune(now);
      });
    } catch (e) {
      logger.warn('maintenance failed', { error: e });
    }
  }, MAINTENANCE_MS);
  maintenance.unref();

  // This daemon's heartbeat row (daemon status, /healthz).
  presence = startPresence({ daemons: store.daemons, leadership, clock, id: newLeaseOwner(), version: VERSION, url: () => url, relaxed: store.commits.relaxed, onError: (error) => logger.warn('heartbeat failed', { error }) });
  const started = presence;
  stops.push(() => started.stop());
  logger.info('socialpub daemon listening', { url, data_dir: config.dataDir, tls: config.tls !== null, behind_proxy: config.behindProxy, database: dialectOf(db) });

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    store,
    app,
    sandbox: {
      mode: sandboxChild ? 'process' : 'in-process',
      get url() {
        return simulatorsUrl();
      },
      get pid() {
        return sandboxChild ? sandboxChild.pid : process.pid;
      },
      get restarts() {
        return sandboxChild?.restarts ?? 0;
      },
    },
    close() {
      closing ??= (async () => {
        clearInterval(maintenance);
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
        for (const stop of stops.reverse()) await stop();
        logger.info('socialpub daemon stopped');
      })();
      return closing;
    },
  };
}

/**
 * Serves only the sandbox simulators on 127.0.0.1 (a free port), plain HTTP, for the
 * daemon's own sandbox connections while the public listener speaks TLS. Nothing but
 * this machine reaches it, and it serves nothing the public listener does not.
 */
async function listenForSandbox(sandbox: Hono): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Hono().route('/sandbox', sandbox);
  const server: ServerType = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await Promise.race([once(server, 'listening'), once(server, 'error').then(([e]) => Promise.reject(e))]);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
