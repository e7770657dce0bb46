import type { Platform } from '@socialpub/core';
import type { AnalyticsService } from '../analytics/analytics-service';
import type { Collector } from '../analytics/collector';
import type { DaemonConfig } from '../config';
import type { BrowserConnects } from '../connect/browser-connect';
import type { EventsHub } from '../events/events-hub';
import type { WebhooksService } from '../events/webhooks-service';
import type { InboxService } from '../inbox/inbox-service';
import type { PostsService } from '../jobs/jobs-service';
import type { TakedownService } from '../jobs/takedown';
import type { McpSessions } from '../mcp/mcp-sessions';
import type { PlatformAdapter } from '../platforms/adapter';
import type { ConnectionCallDeps } from '../platforms/connection-call';
import type { MediaLookup } from '../ports/media';
import type { SchedulerHooks } from '../ports/scheduler';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';

/** What the route modules use; createApp gathers it from AppDeps. */
export interface RouteDeps {
  store: Store;
  clock: Clock;
  config: DaemonConfig;
  logger: RootLogger;
  scheduler: SchedulerHooks;
  /** The content service the job routes call. */
  jobs: PostsService;
  /** Take-downs (POST /content/scheduled/unpublish). */
  takedowns: TakedownService;
  /** Figures of published posts (/analytics). */
  analytics: AnalyticsService;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** When the daemon started (epoch ms), for /healthz uptime. */
  startedAt: number;
}

/**
 * The services the routes call, built by the composition root (compose.ts createServices(),
 * called by daemon.ts and by the tests' test/support/test-app.ts); createApp builds none.
 */
export interface AppServices {
  /** The content service the job routes call. */
  jobs: PostsService;
  /** Take-downs (POST /content/scheduled/unpublish). */
  takedowns: TakedownService;
  /** Calls on a connection's behalf outside a publish (take-downs, TikTok creator info). */
  calls: ConnectionCallDeps;
  /** The analytics collector (its caller starts and stops it: daemon.ts). */
  collector: Collector;
  /** Figures of published posts (/analytics). */
  analytics: AnalyticsService;
  /** Webhook endpoints (/webhooks). */
  webhooks: WebhooksService;
  /** Wakes SSE streams on new events. */
  hub: EventsHub;
  /** The MCP endpoint's open sessions. */
  mcpSessions: McpSessions;
  /** Live connects started from the dashboard (/connect/callback, /connections). */
  browserConnects: BrowserConnects;
  /** The inbox: comments under published posts and our replies (/inbox); the caller starts and stops its loop. */
  inbox: InboxService;
}
