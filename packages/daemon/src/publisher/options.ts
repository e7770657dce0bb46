import type { Platform } from '@socialpub/core';
import type { Logger, PlatformAdapter } from '../platforms/adapter';
import type { MediaResolver, SchedulerHooks } from '../services';
import type { TargetQueue } from '../store/target-queue';
import type { Clock } from '../util/clock';
import type { BackoffOptions } from './backoff';
import type { ConnectionSource } from './connection-source';
import { newLeaseOwner } from './lease-owner';

export interface PublisherOptions {
  queue: TargetQueue;
  clock: Clock;
  adapters: ReadonlyMap<Platform, PlatformAdapter>;
  connections: ConnectionSource;
  media: MediaResolver;
  /** Told whenever a target goes back to `scheduled` (retry, pause, reconcile), so the wheel re-reads it. */
  scheduler: Pick<SchedulerHooks, 'targetsChanged'>;
  /** Targets of one platform in flight at once; a number for all, or per platform (default 4). */
  concurrency?: number | Partial<Record<Platform, number>>;
  /** Lease length; renewed every third of it while an attempt runs (default 2 minutes). */
  leaseMs?: number;
  backoff?: BackoffOptions;
  /** Retryable failures before a target fails with attempts_exhausted (default 8). */
  maxAttempts?: number;
  /** Reconcile tries that end in a transient error before the target goes to needs_review (default 5). */
  maxReconcileTries?: number;
  /** [0, 1) source for backoff jitter (default Math.random). */
  random?: () => number;
  /** How often expired leases are looked for (default 5,000 ms). */
  sweepMs?: number;
  /** The daemon's public base URL, handed to adapters (default null). */
  publicBaseUrl?: string | null;
  /** Base URL of a sandbox connection's simulator for `host`; without it sandbox targets fail. */
  sandboxBaseUrl?: (platform: Platform, host: string) => string;
  /** This process's lease owner (default host/pid/random). */
  owner?: string;
  log?: Logger;
}

/** The publisher's options with their defaults filled in (concurrency goes to the platform gate). */
export type ResolvedOptions = Required<Omit<PublisherOptions, 'sandboxBaseUrl' | 'concurrency' | 'backoff'>> &
  Pick<PublisherOptions, 'sandboxBaseUrl' | 'backoff'>;

const noopLog: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function resolveOptions(opts: PublisherOptions): ResolvedOptions {
  return {
    queue: opts.queue,
    clock: opts.clock,
    adapters: opts.adapters,
    connections: opts.connections,
    media: opts.media,
    scheduler: opts.scheduler,
    leaseMs: opts.leaseMs ?? 120_000,
    backoff: opts.backoff,
    maxAttempts: opts.maxAttempts ?? 8,
    maxReconcileTries: opts.maxReconcileTries ?? 5,
    random: opts.random ?? Math.random,
    sweepMs: opts.sweepMs ?? 5_000,
    publicBaseUrl: opts.publicBaseUrl ?? null,
    sandboxBaseUrl: opts.sandboxBaseUrl,
    owner: opts.owner ?? newLeaseOwner(),
    log: opts.log ?? noopLog,
  };
}
