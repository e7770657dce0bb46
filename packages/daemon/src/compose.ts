import { PLATFORM_INFO, type Platform } from '@socialpub/core';
import { createAnalyticsService } from './analytics/analytics-service';
import { createCollector, type CollectorDeps } from './analytics/collector';
import type { DaemonConfig } from './config';
import { BrowserConnects } from './connect/browser-connect';
import { connectLive } from './connect/index';
import { EventsHub } from './events/events-hub';
import { createWebhooksService } from './events/webhooks-service';
import type { AppServices } from './http/deps';
import { createInboxService, type CommentClientEntry } from './inbox/inbox-service';
import { createPostsService } from './jobs/jobs-service';
import { createTakedownService, type RemoverEntry } from './jobs/takedown';
import { feedMcpSessions } from './mcp/mcp-event-feed';
import { McpSessions } from './mcp/mcp-sessions';
import type { HostResolver } from './net/address-guard';
import type { PlatformAdapter } from './platforms/adapter';
import type { ConnectionCallDeps } from './platforms/connection-call';
import type { ConnectDeps } from './platforms/platform-module';
import { createAnalyticsReaders, createCommentClients, createRemovers, platformModule } from './platforms/registry';
import type { MediaLookup } from './ports/media';
import type { SchedulerHooks } from './ports/scheduler';
import type { Store } from './store/store';
import type { Clock } from './util/clock';
import type { RootLogger } from './util/logger';
import type { SecretBox } from './util/secrets';

/** What the services behind the HTTP interface are built from. */
export interface ServiceParts {
  store: Store;
  config: DaemonConfig;
  clock: Clock;
  logger: RootLogger;
  /** Seals webhook secrets (the webhooks service); connection secrets are opened by store.credentials. */
  secrets: SecretBox;
  scheduler: SchedulerHooks;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** Take-down support per platform. Default: createRemovers(config.platforms). */
  removers?: Map<Platform, RemoverEntry>;
  /** The networks' comment clients (the inbox). Default: createCommentClients(config.platforms). */
  commentClients?: Map<Platform, CommentClientEntry>;
  /** Where a sandbox connection's simulator answers for `host`, for calls outside a publish (take-downs, TikTok's creator info); default: none served. */
  sandboxBaseUrl?: (platform: Platform, host: string) => string;
  /** Whether publishing has the floor on a connection (the publisher's connectionBusy): the analytics collector waits while it does. Default: never. */
  publishingBusy?: CollectorDeps['publishingBusy'];
  /** The publisher's targets waiting or in flight (publisher.busy): the collector's schedule waits while there are any. Default: none. */
  publishingBacklog?: CollectorDeps['publishingBacklog'];
  /** The analytics collector's other options (tests: tickMs, yieldMs...). */
  collector?: Partial<Pick<CollectorDeps, 'readers' | 'publishAheadMs' | 'yieldMs' | 'retryMs' | 'tickMs' | 'batchLimit' | 'timeoutMs'>>;
  /** Wakes SSE streams on new events (the daemon's is createEvents().hub). Default: a hub of its own, not started (tests call check()). */
  hub?: EventsHub;
  /** Told when a webhook delivery was queued (the deliverer's pump). */
  webhookQueued?: () => void;
  /** Resolves webhook host names (tests). */
  webhookResolve?: HostResolver;
  /** For the browser connects: where the platforms are (tests point them at the simulators). Default: the real hosts. */
  connectDeps?: Omit<ConnectDeps, 'connections'>;
}

/**
 * The composition root's builder of the services the HTTP interface calls: the jobs and
 * take-down services, the analytics collector (the caller starts and stops it) and its service, the calls made on a connection's behalf, the webhooks service, the
 * events hub, the MCP sessions (fed from the hub) and the dashboard's browser connects.
 * daemon.ts builds them with this and hands them to createApp, which only wires routes;
 * tests do the same (test/support/test-app.ts). The caller closes what it ends
 * (browserConnects.close(), mcpSessions.closeAll()).
 */
export function createServices(p: ServiceParts): AppServices {
  const { store, config, clock, logger, scheduler, mediaLookup, adapters } = p;
  const jobs = createPostsService({
    store,
    clock,
    logger,
    scheduler,
    mediaLookup,
    adapters,
    publicBaseUrl: config.publicUrl,
    ...(p.sandboxBaseUrl ? { sandboxBaseUrl: p.sandboxBaseUrl } : {}),
  });
  const removers = p.removers ?? createRemovers(config.platforms);
  // Calls on a connection's behalf outside a publish (take-downs, TikTok creator info).
  const calls: ConnectionCallDeps = { credentials: store.credentials, clock, logger, sandboxBaseUrl: p.sandboxBaseUrl ?? null };
  const takedowns = createTakedownService({ store, clock, logger, jobs, removers, calls });
  // Figures of published posts: the collector (started by the caller) and the routes' service.
  const collector = createCollector({
    store,
    clock,
    logger,
    readers: createAnalyticsReaders(config.platforms),
    calls,
    retentionMs: config.analyticsRetentionMs,
    ...(p.publishingBusy ? { publishingBusy: p.publishingBusy } : {}),
    ...(p.publishingBacklog ? { publishingBacklog: p.publishingBacklog } : {}),
    ...p.collector,
  });
  const analytics = createAnalyticsService({ store, clock, jobs, collector });
  const hub = p.hub ?? new EventsHub(store.events, logger);
  const webhooks = createWebhooksService({
    store,
    clock,
    secrets: p.secrets,
    policy: { allowPrivate: config.webhookAllowPrivate, ...(p.webhookResolve ? { resolve: p.webhookResolve } : {}) },
    queued: p.webhookQueued,
  });
  // The MCP endpoint's open sessions, with resource notifications for every change from the outbox (ends with the hub).
  const mcpSessions = new McpSessions({ clock, maxBodyBytes: config.maxBodyBytes });
  feedMcpSessions({ hub, events: store.events, sessions: mcpSessions });
  // Live connects started from the dashboard.
  // Through connectLive, as `socialpub connect` runs them: the label asked for reaches every save of the flow.
  const browserConnects = new BrowserConnects({
    clock,
    deps: { clock, platforms: config.platforms, oauthApps: store.oauthApps, ...p.connectDeps, connections: store.connections },
    connector: (pl) => (platformModule(pl)?.connect ? (options, io, deps) => connectLive(pl, options, io, deps) : undefined),
  });
  // The inbox: its loop (the schedule, the reply sender) is started by daemon.ts.
  const inbox = createInboxService({
    store,
    clock,
    logger,
    calls,
    clients: p.commentClients ?? createCommentClients(config.platforms),
    // A reply is a post on the network: the same caption rule as a post there (a Mastodon server's own limit).
    captionRule: (platform, meta) => (adapters.get(platform)?.infoFor?.(meta) ?? PLATFORM_INFO[platform]).caption,
    notify: () => hub.check(),
  });
  return { jobs, takedowns, calls, collector, analytics, webhooks, hub, mcpSessions, browserConnects, inbox };
}
