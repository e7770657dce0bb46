import type { Platform } from '@socialpub/core';
import type { RateLimitedError } from '../platforms/errors';
import type { PublisherOptions, ResolvedOptions } from './options';
import type { AttemptScope, Settled, Task } from './task';
import { ConnectionGate } from './connection-gate';
import { isOwnerDead } from './lease-owner';
import { gateLimits, resolveOptions } from './options';
import { PauseBook } from './pause-book';
import { PREPARE_AHEAD_MS, Preparer } from './preparer';
import { publishAttempt } from './publish-attempt';
import { reconcileAttempt } from './reconcile-attempt';
import { shareOf } from './share';

export type { PublisherOptions } from './options';
export type { Settled } from './task';

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
  readonly #o: ResolvedOptions;
  readonly #scope: AttemptScope;
  readonly #gate: ConnectionGate<Task>;
  readonly #pauses: PauseBook;
  readonly #preparer: Preparer;
  /** Tasks waiting in the gate or running, by target id: a target is handled once at a time. */
  readonly #known = new Map<string, Task>();
  readonly #running = new Map<string, { ctl: AbortController; done: Promise<void> }>();
  /** Ids whose in-flight attempt was given up at shutdown: nothing more is written for them. */
  readonly #abandoned = new Set<string>();
  readonly #reconcileTries = new Map<string, number>();
  /** Ids dispatched while a task for them was in hand: dispatched again when it ends. */
  readonly #again = new Set<string>();
  readonly #listeners = new Set<(s: Settled) => void>();
  /** Due targets of other daemons' shares held back, and when: at their second look they are taken whoever's they are. */
  readonly #leftToOthers = new Map<string, number>();
  #accepting = false;
  /** Set once stop() returned: the store may be closed, so late results are not written. */
  #stopped = false;
  #sweepCtl: AbortController | null = null;
  #sweepLoop: Promise<void> | null = null;

  constructor(opts: PublisherOptions) {
    this.#o = resolveOptions(opts);
    this.#gate = new ConnectionGate<Task>(gateLimits(opts));
    this.#pauses = new PauseBook(this.#o.queue.pauses);
    this.#preparer = new Preparer(this.#o, {
      aheadMs: opts.prepareAheadMs ?? PREPARE_AHEAD_MS,
      paused: (userId, platform, now, connectionId) => this.#pauses.pausedUntil(userId, platform, now, connectionId) !== null,
    });
    this.#scope = {
      o: this.#o,
      abandoned: (id) => this.#abandoned.has(id),
      stopped: () => this.#stopped,
      accepting: () => this.#accepting,
      reloadPauses: (now) => this.#pauses.load(now),
      preparation: (id) => this.#preparer.settled(id),
      holdIfPaused: (id, userId, platform, now, connectionId) => this.#holdIfPaused(id, userId, platform, now, connectionId),
      pause: (target, limit, now) => this.#pause(target, limit, now),
    };
  }

  get owner(): string {
    return this.#o.owner;
  }

  /** Targets waiting for a slot plus those in flight. */
  get busy(): number {
    return this.#known.size;
  }

  /**
   * Whether a connection's publishing has the floor: targets of it waiting for a slot or in
   * flight, or the connection (or its platform) paused by a rate limit. Work that only reads
   * (the analytics collector) waits while it does, so it never takes a publish's calls.
   */
  connectionBusy(userId: string, platform: Platform, connectionId: string | null): boolean {
    return this.#gate.hasWork(userId, platform, connectionId) || this.#pauses.pausedUntil(userId, platform, this.#o.clock.now(), connectionId) !== null;
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
    this.#pauses.load(this.#o.clock.now());
    for (const dead of queue.publishingOwners()) {
      if (dead === null || !isOwnerDead(dead, owner)) continue;
      for (const id of queue.publishingOf(dead)) this.#enqueueReconcile(id, dead);
    }
    this.#sweepExpiredLeases();
    this.#sweepCtl = new AbortController();
    this.#sweepLoop = this.#sweepEvery(this.#sweepCtl.signal);
    this.#preparer.start();
  }

  /** Targets were created, re-timed or approved: those due within the preparer's window are prepared now. */
  targetsChanged(targetIds: readonly string[]): void {
    if (this.#accepting) this.#preparer.targetsChanged(targetIds);
  }

  /** A target fell due (from the scheduler). Ignored when not scheduled, not due, or already in hand. */
  dispatch(targetId: string): void {
    this.dispatchMany([targetId]);
  }

  /**
   * Targets fell due (the scheduler's tick): their states are read in one statement. Each
   * is ignored when not scheduled, not due or already in hand; with several daemons, one
   * in another daemon's share (publisher/share.ts) is looked at again `shareGraceMs` later.
   */
  dispatchMany(targetIds: readonly string[]): void {
    if (!this.#accepting) return;
    const fresh: string[] = [];
    for (const id of targetIds) {
      // In hand already; if the task ends by putting it back to scheduled, look again then.
      if (this.#known.has(id)) this.#again.add(id);
      else fresh.push(id);
    }
    if (fresh.length === 0) return;
    const states = new Map(this.#o.queue.fireStates(fresh).map((s) => [s.id, s]));
    const now = this.#o.clock.now();
    const share = this.#o.share();
    const retimed: string[] = [];
    const others: string[] = [];
    for (const id of fresh) {
      const s = states.get(id);
      const heldSince = this.#leftToOthers.get(id);
      if (heldSince !== undefined) this.#leftToOthers.delete(id);
      if (!s || s.status !== 'scheduled') continue;
      if (s.fireAt > now) {
        // Re-timed later since the wheel read it: let the wheel hold it until then.
        retimed.push(id);
        continue;
      }
      if (share && share.of > 1 && heldSince === undefined && shareOf(s, share.of) !== share.index) {
        others.push(id);
        continue;
      }
      if (this.#holdIfPaused(id, s.userId, s.platform, now, s.connectionId)) continue;
      this.#enqueue({ kind: 'publish', id, platform: s.platform, userId: s.userId, connectionId: s.connectionId, deadOwner: null });
    }
    if (retimed.length > 0) this.#o.scheduler.targetsChanged(retimed);
    if (others.length > 0) this.#leaveToOthers(others, now);
  }

  #leaveToOthers(ids: readonly string[], now: number): void {
    const { scheduler, shareGraceMs } = this.#o;
    if (!scheduler.recheckAt) {
      // No wheel to hold them (a scheduler without recheckAt): taken now, as without shares.
      for (const id of ids) this.#leftToOthers.set(id, now);
      this.dispatchMany(ids);
      return;
    }
    // Forget marks whose second look never came (the target was cancelled or re-timed meanwhile).
    if (this.#leftToOthers.size > 50_000) for (const [id, at] of this.#leftToOthers) if (at < now - 10 * shareGraceMs) this.#leftToOthers.delete(id);
    for (const id of ids) this.#leftToOthers.set(id, now);
    scheduler.recheckAt(ids, now + shareGraceMs);
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
    await this.#preparer.stop();
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

  #holdIfPaused(id: string, userId: string, platform: Platform, now: number, connectionId: string | null): boolean {
    const until = this.#pauses.pausedUntil(userId, platform, now, connectionId);
    if (until === null) return false;
    if (this.#o.queue.defer(id, until, now)) this.#o.scheduler.targetsChanged([id]);
    return true;
  }

  #enqueue(task: Task): void {
    if (this.#known.has(task.id)) return;
    this.#known.set(task.id, task);
    for (const t of this.#gate.push(task)) this.#start(t);
  }

  #enqueueReconcile(id: string, deadOwner: string | null): void {
    const [s] = this.#o.queue.fireStates([id]);
    if (!s || s.status !== 'publishing') return;
    this.#enqueue({ kind: 'reconcile', id, platform: s.platform, userId: s.userId, connectionId: s.connectionId, deadOwner });
  }

  #start(task: Task): void {
    const ctl = new AbortController();
    const work =
      task.kind === 'publish'
        ? publishAttempt(this.#scope, task, ctl.signal)
        : reconcileAttempt(this.#scope, this.#reconcileTries, task, ctl.signal);
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
        for (const next of this.#gate.done(task)) {
          if (this.#accepting) this.#start(next);
          else this.#known.delete(next.id);
        }
      });
    this.#running.set(task.id, { ctl, done });
  }

  #pause(target: { userId: string; platform: Platform; connectionId: string | null }, limit: RateLimitedError, now: number): void {
    const { platform, userId, connectionId } = target;
    const request = { platform, userId, connectionId, appliesTo: limit.appliesTo, until: limit.until, reason: limit.message, platformCode: limit.platformCode };
    if (!this.#pauses.pause(request, now)) return;
    this.#o.log.warn(limit.appliesTo === 'app' ? 'platform app limit: every connection paused' : 'connection rate limit: paused', {
      platform,
      ...(limit.appliesTo === 'app' ? {} : { user_id: userId }),
      until: new Date(limit.until).toISOString(),
    });
    const waiting = limit.appliesTo === 'app' ? this.#gate.drainPlatform(platform) : this.#gate.drainConnection(userId, platform, connectionId);
    const deferred: string[] = [];
    for (const t of waiting) {
      this.#known.delete(t.id);
      if (t.kind === 'reconcile') {
        this.#enqueue(t); // reconciles only read; they are not held back by a publishing limit
        continue;
      }
      deferred.push(t.id);
    }
    // One commit for all of them: a backlog of thousands is handed back at once.
    const held = this.#o.queue.deferAll(deferred, this.#pauses.pausedUntil(userId, platform, now, connectionId) ?? limit.until, now);
    if (held.length > 0) this.#o.scheduler.targetsChanged(held);
  }

  #sweepExpiredLeases(): void {
    const now = this.#o.clock.now();
    this.#pauses.load(now);
    for (const id of this.#o.queue.expiredLeases(now, 200)) {
      if (!this.#known.has(id)) this.#enqueueReconcile(id, null);
    }
    // Another daemon over the same database, on this host, that died (SIGKILL): its claims
    // are reconciled now rather than when their leases run out (docs/scaling.md "Several
    // daemons"). Owners on other hosts are left to their leases (isOwnerDead cannot tell).
    for (const dead of this.#o.queue.publishingOwners()) {
      if (dead === null || dead === this.#o.owner || !isOwnerDead(dead, this.#o.owner)) continue;
      for (const id of this.#o.queue.publishingOf(dead)) if (!this.#known.has(id)) this.#enqueueReconcile(id, dead);
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
