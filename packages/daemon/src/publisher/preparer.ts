import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../platforms/adapter';
import type { ResolvedOptions } from './options';
import { buildContext } from './build-context';

/** How long before its due time a target is prepared, by default. */
export const PREPARE_AHEAD_MS = 60_000;
/** The longest an attempt waits for its target's preparation in flight before making it itself. */
const WAIT_FOR_PREPARATION_MS = 5_000;
const TICK_MS = 1_000;
const SCAN_BATCH = 200;
/** Preparations in flight at once (each is one platform call, one connection at a time). */
const IN_FLIGHT_MAX = 64;

export interface PreparerOptions {
  /** How long before the due time (0: never prepare). */
  aheadMs: number;
  /** True while the connection (or its platform's app) is paused by a rate limit: nothing is sent for it. */
  paused(userId: string, platform: Platform, now: number): boolean;
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
 * what no longer fits. Targets re-timed to before the watermark are not prepared.
 */
export class Preparer {
  readonly #o: ResolvedOptions;
  readonly #opts: PreparerOptions;
  readonly #inFlight = new Map<string, Promise<void>>();
  /** The last preparation queued per connection: the next one of the connection waits for it. */
  readonly #byConnection = new Map<string, Promise<void>>();
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
    await Promise.allSettled(this.#inFlight.values());
    this.#loop = null;
    this.#ctl = null;
  }

  /** Resolves when the preparation of `id` in flight, if any, has ended, or after a bounded wait. */
  async settled(id: string): Promise<void> {
    const running = this.#inFlight.get(id);
    if (!running) return;
    const timer = new AbortController();
    await Promise.race([running, this.#o.clock.sleep(WAIT_FOR_PREPARATION_MS, timer.signal).catch(() => {})]);
    timer.abort();
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
    const { queue, adapters, clock } = this.#o;
    const now = clock.now();
    for (;;) {
      const batch = queue.scan(this.#markT, this.#markId, now + this.#opts.aheadMs, SCAN_BATCH);
      if (batch.length === 0) return;
      const states = new Map(queue.fireStates(batch.map((e) => e.id)).map((s) => [s.id, s]));
      for (const e of batch) {
        // Full: the watermark stays before this one, which the next tick reads again.
        if (this.#inFlight.size >= IN_FLIGHT_MAX) return;
        this.#markT = e.fireAt;
        this.#markId = e.id;
        const s = states.get(e.id);
        if (!s || s.status !== 'scheduled' || s.fireAt <= now) continue;
        const adapter = adapters.get(s.platform);
        if (!adapter?.prepare || this.#opts.paused(s.userId, s.platform, now)) continue;
        this.#queue(e.id, s.userId, s.platform, adapter, signal);
      }
      if (batch.length < SCAN_BATCH) return;
    }
  }

  #queue(id: string, userId: string, platform: Platform, adapter: PlatformAdapter, signal: AbortSignal): void {
    const key = `${userId}\u0000${platform}`;
    const before = this.#byConnection.get(key) ?? Promise.resolve();
    const done = before
      .then(() => this.#prepare(id, userId, platform, adapter, signal))
      .catch((err: unknown) => {
        this.#o.log.debug('preparation not made; the attempt makes it at the due time', { target_id: id, platform, error: (err as Error).message });
      });
    this.#byConnection.set(key, done);
    this.#inFlight.set(id, done);
    void done.finally(() => {
      this.#inFlight.delete(id);
      if (this.#byConnection.get(key) === done) this.#byConnection.delete(key);
    });
  }

  async #prepare(id: string, userId: string, platform: Platform, adapter: PlatformAdapter, signal: AbortSignal): Promise<void> {
    const o = this.#o;
    if (signal.aborted) return;
    const target = o.queue.preparationOf(id);
    // A first attempt only: a retry waits out its backoff against a platform that just failed it.
    if (!target || target.attempt > 0 || target.mediaUrls.length > 0) return;
    if (o.queue.connectionState(userId, platform).state !== 'active') return;
    const credentials = await o.connections.credentialsFor(userId, platform);
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
