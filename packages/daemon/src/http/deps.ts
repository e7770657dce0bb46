import type { Platform } from '@socialpub/core';
import type { DaemonConfig } from '../config';
import type { PlatformAdapter } from '../platforms/adapter';
import type { MediaLookup, SchedulerHooks } from '../services';
import type { Commits } from '../store/commits';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';

/** What the route modules use; createApp fills the defaults. */
export interface RouteDeps {
  store: Store;
  /** Durable commits (group-committed fsync) and relaxed writes over the store's connection. */
  commits: Commits;
  clock: Clock;
  config: DaemonConfig;
  logger: RootLogger;
  scheduler: SchedulerHooks;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** When the daemon started (epoch ms), for /healthz uptime. */
  startedAt: number;
}
