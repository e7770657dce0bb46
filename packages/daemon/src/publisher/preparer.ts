import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../platforms/adapter';
import type { TargetFireState } from '../store/target-queue';
import type { ResolvedOptions } from './options';
import { buildContext } from './build-context';

/** How long before its due time a target is prepared, by default. */
export const PREPARE_AHEAD_MS = 60_000;
/** The longest an attempt waits for its target's preparation in flight before making it itself. */
const WAIT_FOR_PREPARATION_MS = 5_000;
const TICK_MS = 1_000;
const SCAN_BATCH = 200;
/** Preparations under way at once (each is a platform call; one at a time per connection); the rest wait their turn. */
const IN_FLIGHT_MAX = 64;

export interface PreparerOptions {
  /** How long before the due time (0: never prepare). */
  aheadMs: number;
  /** True while the connection (or its platform's app) is paused by a rate limit: nothing is sent for it. */
  paused(userId: string, platform: Platform, now: number, connectionId: string | null): boolean;
}

/**
 * Makes ahead of the due time what an adapter can make without publishing anything
 * (`adapter.prepare`: a Threads text container), so that at the due time the target is
 * one platform call from published instead of two in a row. Every second it reads the
 * scheduled targets falling due within `aheadMs` that it has not read yet (a watermark
 * over the fire time, as the scheduler's loader keeps) and prepares those whose platform
 * has a prepare step and that have no media and no attempt yet, one at a time per connection.
 *
 * Nothing here publishes, and nothing here is needed: a preparation that fails, is still
 * in flight at the due time (the attempt waits up to 5 s for it), or is refused because the
 * target was claimed, cancelled or moved meanwhile, leaves the attempt to make it as it
 * always did. A target edited after its preparation is checked by the adapter, which drops
 * what no longer fits. Targets created or moved into the window are told of through
 * targetsChanged (the scheduler's hook), since the watermark has passed their time.
 */
export class Preparer {
  readonly #o: ResolvedOptions;
  readonly #opts: PreparerOptions;
  /** Preparations asked for and not ended: `started` once its platform call may be under way. */
  readonly #known = new Map<string, { started: boolean; cancelled: boolean; done: Promise<void> }>();
  /** The last preparation queued per connection: the next one of the connection waits for it. */
  readonly #byConnection = new Map<string, Promise<void>>();
  /** Free slots of IN_FLIGHT_MAX, and the preparations waiting for one. */
  #free = IN_FLIGHT_MAX;
  readonly #waiting: (() => void)[] = [];
  #markT = 0;
  #markId = '';
  #ctl: AbortController | null = null;
  #loop: Promise<void> | null = null;

  constructor(o: ResolvedOptions, opts: PreparerOptions) {
    this.#o = o;
    this.#opts = opts;
  }

  /** Starts reading ahead from now (targets already due are the publisher's). No-op when no adapter prepares. */
  start(): void {
    if (this.#loop || this.#opts.aheadMs <= 0 || ![...this.#o.adapters.values()].some((a) => a.prepare)) return;
    this.#markT = this.#o.clock.now();
    this.#markId = '';
    this.#ctl = new AbortController();
    this.#loop = this.#run(this.#ctl.signal);
  }

  /** Stops reading and aborts the preparations in flight. */
  async stop(): Promise<void> {
    this.#ctl?.abort();
    await this.#loop;
    await Promise.allSettled([...this.#known.values()].map((k) => k.done));
    this.#loop = null;
    this.#ctl = null;
  }

  /**
   * Called as the target's attempt begins. A preparation still waiting its turn is dropped
   * (the attempt makes it itself); one under way is waited for, up to 5 s.
   */
  async settled(id: string): Promise<void> {
    const known = this.#known.get(id);
    if (!known) return;
    if (!known.started) {
      known.cancelled = true;
      return;
    }
    const timer = new AbortController();
    await Promise.race([known.done, this.#o.clock.sleep(WAIT_FOR_PREPARATION_MS, timer.signal).catch(() => {})]);
    timer.abort();
  }

  /**
   * Targets were created, re-timed or approved (the scheduler's hook): those now falling due
   * within the window are prepared at once. The scan's watermark cannot see them when they
   * fall due at a time it has already read, as every post of a burst due at 09:00 does.
   */
  targetsChanged(ids: readonly string[]): void {
    const signal = this.#ctl?.signal;
    if (!signal || signal.aborted || ids.length === 0) return;
    const now = this.#o.clock.now();
    for (const s of this.#o.queue.fireStates(ids)) {
      if (s.status === 'scheduled' && s.fireAt > now && s.fireAt <= now + this.#opts.aheadMs) this.#consider(s, now, signal);
    }
  }

  async #run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        this.#scan(signal);
      } catch (err) {
        this.#o.log.error('preparing targets ahead of their due time failed', { err });
      }
      try {
        await this.#o.clock.sleep(TICK_MS, signal);
      } catch {
        return;
      }
    }
  }

  #scan(signal: AbortSignal): void {
    const { queue, clock } = this.#o;
    const now = clock.now();
    for (;;) {
      const batch = queue.scan(this.#markT, this.#markId, now + this.#opts.aheadMs, SCAN_BATCH);
      if (batch.length === 0) return;
      const states = new Map(queue.fireStates(batch.map((e) => e.id)).map((s) => [s.id, s]));
      for (const e of batch) {
        this.#markT = e.fireAt;
        this.#markId = e.id;
        const s = states.get(e.id);
        if (s && s.status === 'scheduled' && s.fireAt > now) this.#consider(s, now, signal);
      }
      if (batch.length < SCAN_BATCH) return;
    }
  }

  #consider(s: TargetFireState, now: number, signal: AbortSignal): void {
    const adapter = this.#o.adapters.get(s.platform);
    if (!adapter?.prepare || this.#known.has(s.id) || this.#opts.paused(s.userId, s.platform, now, s.connectionId)) return;
    const key = `${s.userId}\u0000${s.platform}`;
    const state = { started: false, cancelled: false, done: Promise.resolve() };
    const before = this.#byConnection.get(key) ?? Promise.resolve();
    state.done = before
      .then(() => this.#slot())
      .then(async () => {
        try {
          if (state.cancelled || signal.aborted) return;
          state.started = true;
          await this.#prepare(s.id, s.userId, s.platform, adapter, signal);
        } finally {
          this.#release();
        }
      })
      .catch((err: unknown) => {
        this.#o.log.debug('preparation not made; the attempt makes it at the due time', { target_id: s.id, platform: s.platform, error: (err as Error).message });
      });
    this.#known.set(s.id, state);
    this.#byConnection.set(key, state.done);
    void state.done.finally(() => {
      this.#known.delete(s.id);
      if (this.#byConnection.get(key) === state.done) this.#byConnection.delete(key);
    });
  }

  async #slot(): Promise<void> {
    if (this.#free > 0) {
      this.#free -= 1;
      return;
    }
    await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free += 1;
  }

  async #prepare(id: string, userId: string, platform: Platform, adapter: PlatformAdapter, signal: AbortSignal): Promise<void> {
    const o = this.#o;
    const target = o.queue.preparationOf(id);
    // A first attempt only: a retry waits out its backoff against a platform that just failed it.
    if (!target || target.attempt > 0 || target.mediaUrls.length > 0) return;
    if (o.queue.connectionState(userId, platform, target.connectionId, target.label).state !== 'active') return;
    const credentials = await o.connections.credentialsFor(userId, platform, target.connectionId, target.label);
    if (!credentials || signal.aborted) return;
    const persist = async (patch: Record<string, unknown>) => {
      if (!(await o.writes.run(() => o.queue.savePreparation(id, patch)))) {
        throw new Error('the target is no longer scheduled; what was made for it is left unused');
      }
    };
    const ctx = buildContext(o, target, credentials, [], signal, () => {}, [], persist);
    await adapter.prepare?.(ctx);
  }
}
