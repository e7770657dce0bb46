import type { Platform } from '@socialpub/core';
import type { DaemonConfig } from '../config';
import type { JobsService } from '../jobs/jobs-service';
import type { TakedownService } from '../jobs/takedown';
import type { PlatformAdapter } from '../platforms/adapter';
import type { MediaLookup } from '../ports/media';
import type { SchedulerHooks } from '../ports/scheduler';
import type { Store } from '../store/store';
import type { Clock } from '../util/clock';
import type { RootLogger } from '../util/logger';

/** What the route modules use; createApp fills the defaults. */
export interface RouteDeps {
  store: Store;
  clock: Clock;
  config: DaemonConfig;
  logger: RootLogger;
  scheduler: SchedulerHooks;
  /** The content service the job routes call. */
  jobs: JobsService;
  /** Take-downs (POST /content/scheduled/unpublish). */
  takedowns: TakedownService;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  /** When the daemon started (epoch ms), for /healthz uptime. */
  startedAt: number;
}
