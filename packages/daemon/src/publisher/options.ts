import type { Platform } from '@socialpub/core';
import type { Logger, PlatformAdapter } from '../platforms/adapter';
import type { MediaResolver } from '../ports/media';
import type { SchedulerHooks } from '../ports/scheduler';
import type { CheckpointSave, ClaimOutcome, FinishRequest, TargetQueue } from '../store/target-queue';
import type { Clock } from '../util/clock';
import type { BackoffOptions } from './backoff';
import type { Commits } from '../store/commits';
import type { ConnectionSource } from './connection-source';
import type { GateLimits } from './connection-gate';
import type { Share } from './share';
import { CoalescedWrite } from './coalesced-write';
import { LeaseBook } from './lease-keeper';
import { newLeaseOwner } from './lease-owner';
import { WriteBatch } from './write-batch';

export interface PublisherOptions {
  queue: TargetQueue;
  clock: Clock;
  adapters: ReadonlyMap<Platform, PlatformAdapter>;
  connections: ConnectionSource;
  media: MediaResolver;
  /**
   * Told whenever a target goes back to `scheduled` (retry, pause, reconcile), so the wheel
   * re-reads it; `recheckAt` holds due targets of another daemon's share for a second look.
   */
  scheduler: Pick<SchedulerHooks, 'targetsChanged'> & { recheckAt?: (targetIds: readonly string[], at: number) => void };
  /**
   * This daemon's share of the due targets among the daemons over the database
   * (publisher/share.ts), asked at each dispatch; null: every due target is this daemon's
   * (default: always null, as with one daemon).
   */
  share?: () => Share | null;
  /** How long a due target of another daemon's share is left to it before this one takes it (default 3,000 ms). */
  shareGraceMs?: number;
  /**
   * Targets of one platform in flight at once across all its connections; a number for
   * every platform, or per platform (default DEFAULT_LIMITS.perPlatform).
   */
  concurrency?: number | Partial<Record<Platform, number>>;
  /** Targets of one connection (a user's account on a platform) in flight at once (default DEFAULT_LIMITS.perConnection). */
  connectionConcurrency?: number;
  /** Targets in flight at once in all (default DEFAULT_LIMITS.global). */
  globalConcurrency?: number;
  /**
   * How the publisher's batched writes (claims, checkpoints, attempt ends; see
   * write-batch.ts) reach the disk: `durable(fn)` runs `fn` and resolves once it is on
   * disk. The daemon passes its group commit (store/commits.ts), whose fsync runs off the
   * event loop and is shared with the HTTP layer's; default: each batch commits with the
   * connection's own setting (FULL), its fsync on the event loop.
   */
  commits?: Pick<Commits, 'durable'>;
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
  /**
   * How long before its due time a target's platform may make what publishes nothing (a
   * Threads text container: publisher/preparer.ts); 0 turns it off (default PREPARE_AHEAD_MS, 60 s).
   */
  prepareAheadMs?: number;
  /** This process's lease owner (default host/pid/random). */
  owner?: string;
  log?: Logger;
}

/** The publisher's options with their defaults filled in (the concurrency options go to the connection gate). */
export type ResolvedOptions = Required<
  Omit<PublisherOptions, 'sandboxBaseUrl' | 'concurrency' | 'connectionConcurrency' | 'globalConcurrency' | 'backoff' | 'prepareAheadMs'>
> &
  Pick<PublisherOptions, 'sandboxBaseUrl' | 'backoff'> & {
    /** The claims, checkpoints and attempt ends, committed in batches through `commits`. */
    writes: WriteBatch;
    /**
     * Claims asked for in one turn, made in one statement inside that turn's batch (the claim
     * time is the batch's), keeping the connection cap across daemons on PostgreSQL.
     */
    claims: CoalescedWrite<string, ClaimOutcome>;
    /** Checkpoint saves asked for in one turn, written together (one statement on PostgreSQL) inside that turn's batch. */
    checkpoints: CoalescedWrite<CheckpointSave, boolean>;
    /** Attempt ends asked for in one turn, written together inside that turn's batch. */
    ends: CoalescedWrite<FinishRequest, boolean>;
    /** The leases of the attempts in flight, renewed by one loop. */
    leases: LeaseBook;
  };

/**
 * Default caps of targets in flight. A connection's own cap keeps one account from
 * sending a burst its platform would answer with 429s; the platform and global caps bound
 * the daemon's open requests (each is one pending platform call: a socket and some
 * memory, little CPU). High enough that 3,000 targets due in one second on three
 * platforms go out in two rounds (bench/burst; docs/scheduling.md).
 */
export const DEFAULT_LIMITS = Object.freeze({ perConnection: 4, perPlatform: 512, global: 2048 });

/** The connection gate's caps from the options. */
export function gateLimits(opts: Pick<PublisherOptions, 'concurrency' | 'connectionConcurrency' | 'globalConcurrency'>): GateLimits {
  const c = opts.concurrency ?? DEFAULT_LIMITS.perPlatform;
  return {
    perConnection: opts.connectionConcurrency ?? DEFAULT_LIMITS.perConnection,
    perPlatform: (p) => (typeof c === 'number' ? c : (c[p] ?? DEFAULT_LIMITS.perPlatform)),
    global: opts.globalConcurrency ?? DEFAULT_LIMITS.global,
  };
}

const immediateCommits: Pick<Commits, 'durable'> = { durable: async (fn) => fn() };

const noShare = (): Share | null => null;

const noopLog: Logger = { debug() {}, info() {}, warn() {}, error() {} };

export function resolveOptions(opts: PublisherOptions): ResolvedOptions {
  const commits = opts.commits ?? immediateCommits;
  const writes = new WriteBatch(commits, (fn) => opts.queue.transaction(fn), (fn) => opts.queue.isolated(fn));
  const owner = opts.owner ?? newLeaseOwner();
  const leaseMs = opts.leaseMs ?? 120_000;
  const perConnection = gateLimits(opts).perConnection;
  return {
    queue: opts.queue,
    clock: opts.clock,
    adapters: opts.adapters,
    connections: opts.connections,
    media: opts.media,
    scheduler: opts.scheduler,
    leaseMs,
    backoff: opts.backoff,
    maxAttempts: opts.maxAttempts ?? 8,
    maxReconcileTries: opts.maxReconcileTries ?? 5,
    random: opts.random ?? Math.random,
    sweepMs: opts.sweepMs ?? 5_000,
    publicBaseUrl: opts.publicBaseUrl ?? null,
    share: opts.share ?? noShare,
    shareGraceMs: opts.shareGraceMs ?? 3_000,
    commits,
    writes,
    claims: new CoalescedWrite(writes, (ids) => {
      const now = opts.clock.now();
      return opts.queue.claimMany(ids, now, owner, now + leaseMs, perConnection);
    }),
    checkpoints: new CoalescedWrite(writes, (saves) => opts.queue.saveCheckpoints(saves)),
    ends: new CoalescedWrite(writes, (requests) => opts.queue.finishMany(requests)),
    leases: new LeaseBook({ queue: opts.queue, clock: opts.clock, owner, leaseMs }),
    sandboxBaseUrl: opts.sandboxBaseUrl,
    owner,
    log: opts.log ?? noopLog,
  };
}
