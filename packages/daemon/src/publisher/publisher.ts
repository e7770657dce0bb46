import type { Platform } from '@socialpub/core';
import type { Credentials, Logger, MediaItem, PlatformAdapter, PublishContext, PublishOutcome } from '../platforms/adapter';
import type { MediaResolver, SchedulerHooks } from '../services';
import type { AttemptEnd, ClaimedTarget, StoredError, TargetQueue } from '../store/target-queue';
import type { Clock } from '../util/clock';
import type { BackoffOptions } from './backoff';
import type { ConnectionSource } from './connection-source';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../platforms/errors';
import { retryDelay } from './backoff';
import { isOwnerDead, newLeaseOwner } from './lease-owner';
import { PlatformGate } from './platform-gate';
import { redactUrlSecrets } from '../util/redact-url';

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

/** How an attempt or a reconciliation ended, as seen by listeners (tests, metrics). */
export interface Settled {
  targetId: string;
  kind: 'publish' | 'reconcile';
  /** The target's status afterwards; `skipped` when the claim lost (not due, cancelled, taken); `abandoned` at shutdown. */
  result: 'published' | 'scheduled' | 'failed' | 'needs_review' | 'skipped' | 'abandoned' | 'lease_lost' | 'reconcile_later';
}

interface Task {
  kind: 'publish' | 'reconcile';
  id: string;
  platform: Platform;
  /** For a reconcile at start: the dead process whose lease may be taken before it runs out. */
  deadOwner: string | null;
}

class LeaseLostError extends Error {
  constructor(id: string) {
    super(`the lease on ${id} was taken over`);
    this.name = 'LeaseLostError';
  }
}

const noopLog: Logger = { debug() {}, info() {}, warn() {}, error() {} };
/** An error's text as stored on the target and logged: credentials in URLs (signed media URLs) taken out. */
const message = (err: unknown) => redactUrlSecrets(err instanceof Error ? err.message : String(err));

/**
 * Claims due targets, runs their platform adapter and records how each attempt ended.
 *
 * Exactly-once rests on three rules: a target is claimed by compare-and-set
 * (`scheduled` -> `publishing`, with a lease) before anything is sent; every write after
 * that is conditional on still holding the lease; and a target found in `publishing`
 * without a live owner is never published again, only reconciled through the adapter,
 * which ends in published, back to scheduled (provably not posted) or needs_review.
 */
export class Publisher {
  readonly #o: Required<Omit<PublisherOptions, 'sandboxBaseUrl' | 'concurrency' | 'backoff'>> &
    Pick<PublisherOptions, 'sandboxBaseUrl' | 'backoff'>;
  readonly #gate: PlatformGate<Task>;
  /** Tasks waiting in the gate or running, by target id: a target is handled once at a time. */
  readonly #known = new Map<string, Task>();
  readonly #running = new Map<string, { ctl: AbortController; done: Promise<void> }>();
  /** Ids whose in-flight attempt was given up at shutdown: nothing more is written for them. */
  readonly #abandoned = new Set<string>();
  readonly #reconcileTries = new Map<string, number>();
  /** Ids dispatched while a task for them was in hand: dispatched again when it ends. */
  readonly #again = new Set<string>();
  readonly #listeners = new Set<(s: Settled) => void>();
  #accepting = false;
  /** Set once stop() returned: the store may be closed, so late results are not written. */
  #stopped = false;
  #sweepCtl: AbortController | null = null;
  #sweepLoop: Promise<void> | null = null;

  constructor(opts: PublisherOptions) {
    this.#o = {
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
    const c = opts.concurrency ?? 4;
    this.#gate = new PlatformGate<Task>((p) => (typeof c === 'number' ? c : (c[p] ?? 4)));
  }

  get owner(): string {
    return this.#o.owner;
  }

  /** Targets waiting for a slot plus those in flight. */
  get busy(): number {
    return this.#known.size;
  }

  /** Subscribes to settled attempts; returns the unsubscribe function. */
  onSettled(listener: (s: Settled) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Starts accepting targets and recovers from a previous run: targets left `publishing`
   * by a process that is gone, or whose lease ran out, are reconciled (never republished
   * blindly). Overdue scheduled targets are the scheduler's: its first tick fires them.
   */
  start(): void {
    if (this.#accepting) return;
    this.#accepting = true;
    this.#stopped = false;
    const { queue, owner } = this.#o;
    for (const dead of queue.publishingOwners()) {
      if (dead === null || !isOwnerDead(dead, owner)) continue;
      for (const id of queue.publishingOf(dead)) this.#enqueueReconcile(id, dead);
    }
    this.#sweepExpiredLeases();
    this.#sweepCtl = new AbortController();
    this.#sweepLoop = this.#sweepEvery(this.#sweepCtl.signal);
  }

  /** A target fell due (from the scheduler). Ignored when not scheduled, not due, or already in hand. */
  dispatch(targetId: string): void {
    if (!this.#accepting) return;
    if (this.#known.has(targetId)) {
      // In hand already; if the task ends by putting it back to scheduled, look again then.
      this.#again.add(targetId);
      return;
    }
    const [s] = this.#o.queue.fireStates([targetId]);
    if (!s || s.status !== 'scheduled') return;
    const now = this.#o.clock.now();
    if (s.fireAt > now) {
      // Re-timed later since the wheel read it: let the wheel hold it until then.
      this.#o.scheduler.targetsChanged([targetId]);
      return;
    }
    if (this.#holdIfPaused(targetId, s.platform, now)) return;
    this.#enqueue({ kind: 'publish', id: targetId, platform: s.platform, deadOwner: null });
  }

  /**
   * Stops claiming, lets attempts in flight finish until `deadlineMs` has passed on the
   * clock, then aborts the rest and leaves them `publishing` under their lease, for
   * recovery to reconcile at the next start.
   */
  async stop(deadlineMs = 10_000): Promise<void> {
    this.#accepting = false;
    this.#sweepCtl?.abort();
    await this.#sweepLoop;
    this.#again.clear();
    for (const t of this.#gate.drainAll()) this.#known.delete(t.id);
    if (this.#running.size === 0) {
      this.#stopped = true;
      return;
    }
    const timer = new AbortController();
    const deadline =
      deadlineMs <= 0
        ? Promise.resolve(true)
        : this.#o.clock.sleep(deadlineMs, timer.signal).then(
            () => true,
            () => false,
          );
    const finished = Promise.allSettled([...this.#running.values()].map((r) => r.done)).then(() => false);
    const timedOut = await Promise.race([finished, deadline]);
    timer.abort();
    if (timedOut) {
      for (const [id, r] of this.#running) {
        this.#abandoned.add(id);
        r.ctl.abort(new Error('daemon shutting down'));
      }
      this.#o.log.warn('shutdown deadline passed; in-flight targets are left to recovery', { targets: [...this.#running.keys()] });
      // An adapter that ignores the abort must not hold shutdown: give it a moment, then go.
      const grace = new AbortController();
      await Promise.race([
        Promise.allSettled([...this.#running.values()].map((r) => r.done)),
        this.#o.clock.sleep(1_000, grace.signal).catch(() => {}),
      ]);
      grace.abort();
    }
    this.#stopped = true;
  }

  /** Resolves when nothing is waiting or in flight (tests; also handy before closing a store). */
  async whenIdle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running.values()].map((r) => r.done));
  }

  #holdIfPaused(id: string, platform: Platform, now: number): boolean {
    const until = this.#gate.pausedUntil(platform, now);
    if (until === null) return false;
    if (this.#o.queue.defer(id, until, now)) this.#o.scheduler.targetsChanged([id]);
    return true;
  }

  #enqueue(task: Task): void {
    if (this.#known.has(task.id)) return;
    this.#known.set(task.id, task);
    for (const t of this.#gate.push(task.platform, task)) this.#start(t);
  }

  #enqueueReconcile(id: string, deadOwner: string | null): void {
    const [s] = this.#o.queue.fireStates([id]);
    if (!s || s.status !== 'publishing') return;
    this.#enqueue({ kind: 'reconcile', id, platform: s.platform, deadOwner });
  }

  #start(task: Task): void {
    const ctl = new AbortController();
    const work = task.kind === 'publish' ? this.#publish(task, ctl.signal) : this.#reconcile(task, ctl.signal);
    const done = work
      .catch((err: unknown) => {
        this.#o.log.error('publisher task failed', { target_id: task.id, kind: task.kind, err });
        return 'skipped' as const;
      })
      .then((result) => {
        this.#running.delete(task.id);
        this.#known.delete(task.id);
        this.#abandoned.delete(task.id);
        for (const l of this.#listeners) l({ targetId: task.id, kind: task.kind, result });
        if (this.#again.delete(task.id)) this.dispatch(task.id);
        for (const next of this.#gate.done(task.platform)) {
          if (this.#accepting) this.#start(next);
          else this.#known.delete(next.id);
        }
      });
    this.#running.set(task.id, { ctl, done });
  }

  async #publish(task: Task, signal: AbortSignal): Promise<Settled['result']> {
    const { queue, clock, owner, leaseMs } = this.#o;
    const now = clock.now();
    // The platform may have been paused while this waited for a slot.
    if (this.#holdIfPaused(task.id, task.platform, now)) return 'scheduled';
    const claimed = queue.claim(task.id, now, owner, now + leaseMs);
    if (!claimed) return 'skipped';
    const lease = this.#keepLease(claimed.id, signal);
    let phase: 'setup' | 'media' | 'adapter' = 'setup';
    let credentials: Credentials | null = null;
    let expiredByAdapter = false;
    try {
      const conn = queue.connectionState(claimed.userId, claimed.platform);
      if (conn.state === 'expired') {
        return this.#end(claimed, { status: 'failed', error: authExpired(claimed.platform, conn.reason) });
      }
      credentials = conn.state === 'active' ? await this.#o.connections.credentialsFor(claimed.userId, claimed.platform) : null;
      if (!credentials) return this.#end(claimed, { status: 'failed', error: notConnected(claimed.platform) });
      const adapter = this.#o.adapters.get(claimed.platform);
      if (!adapter) return this.#end(claimed, { status: 'failed', error: noAdapter(claimed.platform) });
      phase = 'media';
      const media: MediaItem[] =
        claimed.mediaUrls.length > 0 ? await this.#o.media.resolve(claimed.userId, claimed.mediaUrls, signal) : [];
      phase = 'adapter';
      const creds = credentials;
      const ctx = this.#context(claimed, creds, media, signal, () => {
        expiredByAdapter = true;
      });
      const outcome = await adapter.publish(ctx);
      return this.#end(claimed, published(outcome, clock.now(), 'published'));
    } catch (err) {
      if (this.#abandoned.has(claimed.id)) return 'abandoned';
      if (err instanceof LeaseLostError || lease.lost()) return 'lease_lost';
      if (expiredByAdapter && !(err instanceof OutcomeUnknownError)) {
        return this.#end(claimed, { status: 'failed', error: { ...authExpired(claimed.platform, message(err)), platformCode: platformCodeOf(err) } });
      }
      return this.#end(claimed, this.#classify(claimed, err, phase, credentials));
    } finally {
      lease.stop();
    }
  }

  /** Turns an attempt's error into its outcome. */
  #classify(t: ClaimedTarget, err: unknown, phase: 'setup' | 'media' | 'adapter', credentials: Credentials | null): AttemptEnd {
    const now = this.#o.clock.now();
    const codeFor = (fallback: StoredError['code']): StoredError['code'] => (phase === 'media' ? 'media_unavailable' : fallback);
    const stored = (code: StoredError['code']): StoredError => ({ code, message: message(err), platformCode: platformCodeOf(err) });
    if (err instanceof RateLimitedError) {
      this.#pausePlatform(t.platform, err.until, now);
      return {
        status: 'scheduled',
        nextAttemptAt: Math.max(err.until, now),
        outcome: 'retry',
        attemptErrorCode: 'rate_limited',
        error: stored('platform_error'),
      };
    }
    if (err instanceof RetryableError || (!(err instanceof PublishError) && phase !== 'adapter')) {
      // Nothing was sent (the adapter said so, or it never ran): safe to try again later.
      const failures = this.#o.queue.retryFailures(t.id) + 1;
      const code = codeFor('platform_error');
      if (failures >= this.#o.maxAttempts) {
        return {
          status: 'failed',
          error: { code: 'attempts_exhausted', message: `gave up after ${failures} attempts: ${message(err)}`, platformCode: platformCodeOf(err) },
        };
      }
      const after = err instanceof RetryableError ? (err.after ?? 0) : 0;
      const delay = Math.max(after, retryDelay(failures, this.#o.backoff, this.#o.random));
      return { status: 'scheduled', nextAttemptAt: now + delay, outcome: 'retry', attemptErrorCode: code, error: stored(code) };
    }
    if (err instanceof PermanentError) return { status: 'failed', error: stored(codeFor('platform_error')) };
    if (err instanceof AuthExpiredError) {
      if (credentials) void Promise.resolve(this.#o.connections.markExpired(credentials.connectionId, message(err))).catch(() => {});
      return { status: 'failed', error: stored('auth_expired') };
    }
    if (err instanceof OutcomeUnknownError) return { status: 'needs_review', error: stored('outcome_unknown') };
    // Anything else thrown once the adapter ran may have come after the post was made.
    return {
      status: 'needs_review',
      error: { code: 'outcome_unknown', message: `unexpected error while publishing: ${message(err)}`, platformCode: platformCodeOf(err) },
    };
  }

  async #reconcile(task: Task, signal: AbortSignal): Promise<Settled['result']> {
    const { queue, clock, owner, leaseMs } = this.#o;
    const now = clock.now();
    const claimed = queue.takeOver(task.id, now, owner, now + leaseMs, task.deadOwner);
    if (!claimed) return 'skipped';
    const lease = this.#keepLease(claimed.id, signal);
    try {
      const conn = queue.connectionState(claimed.userId, claimed.platform);
      const credentials = conn.state === 'active' ? await this.#o.connections.credentialsFor(claimed.userId, claimed.platform) : null;
      const adapter = this.#o.adapters.get(claimed.platform);
      if (!credentials || !adapter) {
        const why = !adapter ? `no ${claimed.platform} adapter` : `the ${claimed.platform} connection is ${conn.state}`;
        return this.#end(claimed, review(`could not check whether the interrupted attempt was published: ${why}`));
      }
      const result = await adapter.reconcile(this.#context(claimed, credentials, [], signal, () => {}));
      this.#reconcileTries.delete(claimed.id);
      switch (result.state) {
        case 'published':
          return this.#end(claimed, published(result.outcome, clock.now(), 'reconciled_published'), result.state);
        case 'not_published':
          return this.#end(
            claimed,
            { status: 'scheduled', nextAttemptAt: clock.now(), outcome: 'reconciled_not_published', attemptErrorCode: null, error: null },
            result.reason,
          );
        case 'unknown':
          return this.#end(claimed, review(result.reason), result.reason);
      }
    } catch (err) {
      if (this.#abandoned.has(claimed.id)) return 'abandoned';
      if (err instanceof LeaseLostError || lease.lost()) return 'lease_lost';
      const tries = (this.#reconcileTries.get(claimed.id) ?? 0) + 1;
      if ((err instanceof RetryableError || err instanceof RateLimitedError) && tries < this.#o.maxReconcileTries) {
        // Still unknown: keep the target in publishing and look again when this lease runs out.
        this.#reconcileTries.set(claimed.id, tries);
        const t = clock.now();
        const wait = err instanceof RateLimitedError ? err.until - t : Math.max(err.after ?? 0, retryDelay(tries, this.#o.backoff, this.#o.random));
        queue.renewLease(claimed.id, owner, t + Math.max(wait, 1));
        return 'reconcile_later';
      }
      this.#reconcileTries.delete(claimed.id);
      return this.#end(claimed, review(`could not check whether the interrupted attempt was published: ${message(err)}`));
    } finally {
      lease.stop();
    }
  }

  /** Writes the end of an attempt; reports what became of the target. */
  #end(t: ClaimedTarget, end: AttemptEnd, detail: string | null = null): Settled['result'] {
    if (this.#stopped) return 'abandoned';
    const now = this.#o.clock.now();
    if (!this.#o.queue.finish(t.id, this.#o.owner, now, end, detail)) return 'lease_lost';
    if (end.status === 'scheduled') this.#o.scheduler.targetsChanged([t.id]);
    const fields = { target_id: t.id, platform: t.platform, attempt: t.attempt, status: end.status };
    if (end.status === 'published' || end.status === 'scheduled') this.#o.log.info('target attempt ended', fields);
    else this.#o.log.warn('target attempt ended', { ...fields, error_code: end.error.code, error: end.error.message });
    return end.status;
  }

  #pausePlatform(platform: Platform, until: number, now: number): void {
    if (until <= now) return;
    this.#gate.pause(platform, until);
    this.#o.log.warn('platform rate limit: paused', { platform, until: new Date(until).toISOString() });
    const held: string[] = [];
    for (const t of this.#gate.drain(platform)) {
      this.#known.delete(t.id);
      if (t.kind === 'reconcile') {
        this.#enqueue(t); // reconciles only read; they are not held back by a publishing limit
        continue;
      }
      if (this.#o.queue.defer(t.id, until, now)) held.push(t.id);
    }
    if (held.length > 0) this.#o.scheduler.targetsChanged(held);
  }

  #context(t: ClaimedTarget, credentials: Credentials, media: MediaItem[], signal: AbortSignal, onExpired: () => void): PublishContext {
    const { queue, clock, owner, leaseMs, connections, log } = this.#o;
    const data: Record<string, unknown> = { ...t.checkpoint };
    const sandbox = this.#o.sandboxBaseUrl;
    return {
      target: {
        id: t.id,
        jobId: t.jobId,
        platform: t.platform,
        type: t.type,
        caption: t.caption,
        dueAt: t.dueAt,
        attempt: t.attempt,
        attemptStartedAt: t.attemptStartedAt,
      },
      media,
      credentials,
      saveTokens: async (update) => {
        await connections.saveTokens(credentials.connectionId, update);
      },
      markConnectionExpired: async (reason) => {
        onExpired();
        await connections.markExpired(credentials.connectionId, reason);
      },
      checkpoint: {
        data,
        save: async (patch) => {
          const now = clock.now();
          if (!queue.saveCheckpoint(t.id, owner, patch, now, now + leaseMs)) throw new LeaseLostError(t.id);
          for (const [k, v] of Object.entries(patch)) {
            if (v === null) delete data[k];
            else data[k] = v;
          }
        },
      },
      baseUrl: (host) => {
        if (credentials.mode === 'live') return `https://${host}`;
        if (!sandbox) throw new PermanentError(`no ${t.platform} simulator is available for sandbox connections`);
        return sandbox(t.platform, host);
      },
      publicBaseUrl: this.#o.publicBaseUrl,
      clock,
      signal,
      log,
    };
  }

  /** Renews the lease every third of its length while the attempt runs. */
  #keepLease(id: string, attemptSignal: AbortSignal): { stop(): void; lost(): boolean } {
    const { clock, queue, owner, leaseMs } = this.#o;
    const ctl = new AbortController();
    let lost = false;
    const stopOnAbort = () => ctl.abort();
    attemptSignal.addEventListener('abort', stopOnAbort, { once: true });
    void (async () => {
      while (!ctl.signal.aborted) {
        try {
          await clock.sleep(Math.max(1, Math.floor(leaseMs / 3)), ctl.signal);
        } catch {
          return;
        }
        if (!queue.renewLease(id, owner, clock.now() + leaseMs)) {
          lost = true;
          return;
        }
      }
    })();
    return {
      stop: () => {
        attemptSignal.removeEventListener('abort', stopOnAbort);
        ctl.abort();
      },
      lost: () => lost,
    };
  }

  #sweepExpiredLeases(): void {
    const now = this.#o.clock.now();
    for (const id of this.#o.queue.expiredLeases(now, 200)) {
      if (!this.#known.has(id)) this.#enqueueReconcile(id, null);
    }
  }

  async #sweepEvery(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        await this.#o.clock.sleep(this.#o.sweepMs, signal);
      } catch {
        return;
      }
      try {
        this.#sweepExpiredLeases();
      } catch (err) {
        this.#o.log.error('expired-lease sweep failed', { err });
      }
    }
  }
}

function published(outcome: PublishOutcome, now: number, kind: 'published' | 'reconciled_published'): AttemptEnd {
  return { status: 'published', postId: outcome.postId, postUrl: outcome.postUrl, publishedAt: outcome.publishedAt ?? now, outcome: kind };
}

function review(reason: string): AttemptEnd {
  return { status: 'needs_review', error: { code: 'outcome_unknown', message: reason, platformCode: null } };
}

function authExpired(platform: Platform, reason: string | null): StoredError {
  return { code: 'auth_expired', message: `the ${platform} connection has expired${reason ? `: ${reason}` : ''}; reconnect it`, platformCode: null };
}

function notConnected(platform: Platform): StoredError {
  return { code: 'platform_not_connected', message: `no ${platform} connection for this user`, platformCode: null };
}

function noAdapter(platform: Platform): StoredError {
  return { code: 'platform_error', message: `publishing to ${platform} is not available in this build`, platformCode: null };
}

function platformCodeOf(err: unknown): string | null {
  return err instanceof PublishError ? err.platformCode : null;
}
