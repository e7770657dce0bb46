import type { Platform } from '@socialpub/core';
import type { Logger, PlatformAdapter } from '../platforms/adapter';
import type { SchedulerOptions } from '../scheduler/scheduler';
import type { SchedulerHooks } from '../ports/scheduler';
import type { MediaResolver } from '../ports/media';
import type { Commits } from '../store/commits';
import type { Clock } from '../util/clock';
import type { ConnectionSource } from './connection-source';
import type { PublisherOptions } from './publisher';
import { Scheduler } from '../scheduler/scheduler';
import type { TargetQueue } from '../store/target-queue';
import { Publisher } from './publisher';

export interface PublishingDeps {
  /** The due targets and their claims (store/target-queue.ts), made by the composition root over its connection. */
  queue: TargetQueue;
  clock: Clock;
  adapters: ReadonlyMap<Platform, PlatformAdapter>;
  connections: ConnectionSource;
  media: MediaResolver;
  log?: Logger;
  /**
   * The daemon's group commit over the database, shared with the HTTP layer, so claims, checkpoints,
   * attempt ends and accepted requests share fsyncs; when absent each of the publisher's
   * writes commits on its own with the connection's setting (FULL: one fsync each).
   */
  commits?: Commits;
  /** Overrides of the scheduler's options (horizon, tick, sweep...). */
  scheduler?: Omit<Partial<SchedulerOptions>, 'queue' | 'clock' | 'onDue'>;
  /** Overrides of the publisher's options (concurrency, lease, backoff, sandbox URLs...). */
  publisher?: Omit<Partial<PublisherOptions>, 'queue' | 'clock' | 'adapters' | 'connections' | 'media' | 'scheduler' | 'commits'>;
}

export interface Publishing {
  scheduler: Scheduler;
  publisher: Publisher;
  /** What the rest of the daemon tells about changed targets: the scheduler's wheel and the publisher's preparer. */
  hooks: SchedulerHooks;
  /** Recovers what a previous run left in flight, loads the wheel and starts both loops. */
  start(): Promise<void>;
  /** Stops firing and claiming, waits for attempts in flight up to `deadlineMs`, leaves the rest to recovery. */
  stop(deadlineMs?: number): Promise<void>;
}

/** The scheduler and the publisher over one store, wired to each other (daemon.ts and the crash test use it). */
export function createPublishing(deps: PublishingDeps): Publishing {
  const queue = deps.queue;
  const log = deps.log;
  // The scheduler calls the publisher and the publisher tells the scheduler about retries;
  // the publisher exists before the first call, since nothing fires before start().
  let publisher: Publisher | null = null;
  const scheduler = new Scheduler({
    queue,
    clock: deps.clock,
    onDue: (id) => publisher?.dispatch(id),
    onDueMany: (ids) => publisher?.dispatchMany(ids),
    ...(log ? { log } : {}),
    ...deps.scheduler,
  });
  publisher = new Publisher({
    queue,
    clock: deps.clock,
    adapters: deps.adapters,
    connections: deps.connections,
    media: deps.media,
    scheduler,
    ...(deps.commits ? { commits: deps.commits } : {}),
    ...(log ? { log } : {}),
    ...deps.publisher,
  });
  const p = publisher;
  return {
    scheduler,
    publisher: p,
    hooks: {
      targetsChanged(ids) {
        scheduler.targetsChanged(ids);
        p.targetsChanged(ids);
      },
      status: () => scheduler.status(),
    },
    async start() {
      p.start();
      await scheduler.start();
    },
    async stop(deadlineMs = 10_000) {
      await scheduler.stop();
      await p.stop(deadlineMs);
    },
  };
}
