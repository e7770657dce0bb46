import type { Clock } from '../util/clock';
import type { SecretBox } from '../util/secrets';
import { createCommits, type SqliteSync } from './commits';
import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { createApiKeysRepository } from './api-keys';
import { createConnectionsRepository } from './connections';
import { createCredentialsService } from './credentials';
import { createDaemonsRepository } from './daemons';
import { createDashboardSessionsRepository } from './dashboard-sessions';
import { createEventsRepository } from './events';
import { createIdempotencyRepository } from './idempotency';
import { createInboxRepository } from './inbox';
import { createPostTimesRepository } from './job-times';
import { createPostsRepository } from './jobs';
import { createPostMetricsRepository } from './post-metrics';
import { createOAuthAppsRepository } from './oauth-apps';
import { createQueuesRepository } from './queues';
import { createSeriesRepository } from './series';
import { createPlatformPausesRepository } from './platform-pauses';
import { createRateWindowsRepository } from './rate-windows';
import { createRemovalsRepository } from './removals';
import { createReviewLinksRepository } from './review-links';
import { createRejectionsRepository } from './rejections';
import { createReviewHistoryRepository } from './review-history';
import { createSandboxStore, type SandboxStore } from './sandbox-store';
import { createSettingsRepository } from './settings';
import { createUsersRepository } from './users';
import { MediaStore } from './media-files';
import { createWebhooksRepository } from './webhooks';
import { createDraftsRepository } from './drafts';

export type Store = ReturnType<typeof createStore>;

/**
 * The repositories over one connection, each preparing its statements once: the only way
 * to the database (the connection itself is not handed out: a PostgreSQL store implements
 * the same repositories), and the one way to write several of them atomically: `commits` (durable, group-committed
 * transactions; `sync` is SOCIALPUB_SQLITE_SYNC, default full). Close `commits` with the
 * database.
 */
export function createStore(db: DB, opts: { secrets: SecretBox; clock: Clock; sync?: SqliteSync; sandbox?: SandboxStore }) {
  const settings = createSettingsRepository(db);
  return {
    /** Which database this is (health, and what differs between them: docs/architecture.md). */
    dialect: dialectOf(db),
    commits: createCommits(db, opts.sync ?? 'full'),
    users: createUsersRepository(db),
    apiKeys: createApiKeysRepository(db),
    jobs: createPostsRepository(db),
    jobTimes: createPostTimesRepository(db),
    queues: createQueuesRepository(db),
    series: createSeriesRepository(db),
    idempotency: createIdempotencyRepository(db),
    rateWindows: createRateWindowsRepository(db),
    settings,
    connections: createConnectionsRepository(db, opts.secrets, opts.clock),
    /** The one way to a connection's secrets (opened, renewed, expired). */
    credentials: createCredentialsService(db, opts.secrets, opts.clock),
    oauthApps: createOAuthAppsRepository(db, opts.secrets),
    events: createEventsRepository(db),
    webhooks: createWebhooksRepository(db),
    platformPauses: createPlatformPausesRepository(db),
    removals: createRemovalsRepository(db),
    dashboardSessions: createDashboardSessionsRepository(db),
    /** The daemons over this database, by their heartbeats (cluster/presence.ts). */
    daemons: createDaemonsRepository(db),
    reviewLinks: createReviewLinksRepository(db),
    drafts: createDraftsRepository(db),
    rejections: createRejectionsRepository(db),
    reviewHistory: createReviewHistoryRepository(db),
    /** The inbox: comments under published posts, our replies, the collector's schedule (migration 220). */
    inbox: createInboxRepository(db),
    /** Figures of published posts and the collector's schedule (analytics). */
    postMetrics: createPostMetricsRepository(db),
    /**
     * What the simulators keep (their state, sandbox_posts): in this database while they run
     * in the daemon's process; `opts.sandbox` (a read-only view of sandbox.db) while they run in their own.
     */
    sandbox: opts.sandbox ?? createSandboxStore(db, settings),
    /** media_tasks and media_files. */
    media: new MediaStore(db),
  };
}
