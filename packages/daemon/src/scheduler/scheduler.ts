import type { SchedulerHooks, SchedulerStatus } from '../ports/scheduler';
import type { Logger } from '../util/logger';
import type { TargetQueue } from '../store/target-queue';
import type { Clock } from '../util/clock';
import { MAX_ID } from '../store/target-queue';
import { TimerWheel } from './timer-wheel';

export interface SchedulerOptions {
  queue: Pick<TargetQueue, 'scan' | 'fireStates'>;
  clock: Clock;
  /** Called once per target as it falls due, in due order. Must not throw or block. */
  onDue: (targetId: string) => void;
  /**
   * Called instead of `onDue` with all the targets falling due at one tick (and those the
   * sweep finds), in due order, so the publisher reads their states in one statement rather
   * than one a target. Must not throw or block.
   */
  onDueMany?: (targetIds: readonly string[]) => void;
  /** How far ahead the loader fills the wheel (default 10 minutes). */
  horizonMs?: number;
  /** Most targets the wheel holds; the loader stops there and resumes as they fire (default 100,000). */
  maxEntries?: number;
  /** Rows read per loader step; steps are interleaved with dispatching, so a step is kept short (default 500). */
  batchSize?: number;
  /** The longest the loop sleeps, i.e. the heartbeat /healthz watches (default 1,000 ms). */
  tickMs?: number;
  /** Missed ticks before status() reads stalled (default 5). */
  stallTicks?: number;
  /** How often SQLite is searched for overdue targets the wheel does not hold (default 5,000 ms). */
  sweepMs?: number;
  /** How late a target must be before the sweep re-dispatches it (default 2,000 ms). */
  sweepGraceMs?: number;
  log?: Logger;
}

/**
 * Fires targets at their time. SQLite is the source of truth; the timer wheel is a cache of
 * the ids firing within the horizon, filled in fire order by a loader that remembers how
 * far it has read (the watermark, a (fire time, id) key). Everything at or before the
 * watermark is either in the wheel or already dispatched; everything after it is the
 * loader's to read later, so a change beyond the watermark needs no memory at all.
 *
 * The loop sleeps on the injected clock until the wheel's next slot, at most `tickMs`;
 * a change that brings a target earlier wakes it at once.
 */
export class Scheduler implements SchedulerHooks {
  readonly #queue: SchedulerOptions['queue'];
  readonly #clock: Clock;
  readonly #onDue: (ids: readonly string[]) => void;
  readonly #horizonMs: number;
  readonly #maxEntries: number;
  readonly #batchSize: number;
  readonly #tickMs: number;
  readonly #stallTicks: number;
  readonly #sweepMs: number;
  readonly #sweepGraceMs: number;
  readonly #log: Logger | undefined;

  #wheel: TimerWheel;
  /** Loader watermark: everything firing at or before (t, id) has been loaded. t null: nothing yet. */
  #markT: number | null = null;
  #markId = '';
  #running = false;
  #startedAt: number | null = null;
  #lastTick: number | null = null;
  #nextSweep = 0;
  #wakeAt = Number.POSITIVE_INFINITY;
  #sleep: AbortController | null = null;
  #loop: Promise<void> | null = null;

  constructor(opts: SchedulerOptions) {
    this.#queue = opts.queue;
    this.#clock = opts.clock;
    const one = opts.onDue;
    this.#onDue =
      opts.onDueMany ??
      ((ids) => {
        for (const id of ids) {
          try {
            one(id);
          } catch (err) {
            this.#log?.error('dispatching a due target failed', { target_id: id, err });
          }
        }
      });
    this.#horizonMs = opts.horizonMs ?? 10 * 60_000;
    this.#maxEntries = opts.maxEntries ?? 100_000;
    this.#batchSize = opts.batchSize ?? 500;
    this.#tickMs = opts.tickMs ?? 1_000;
    this.#stallTicks = opts.stallTicks ?? 5;
    this.#sweepMs = opts.sweepMs ?? 5_000;
    this.#sweepGraceMs = opts.sweepGraceMs ?? 2_000;
    this.#log = opts.log;
    this.#wheel = new TimerWheel(this.#clock.now());
  }

  /**
   * Loads the wheel (up to the horizon or maxEntries, overdue targets first) and starts the
   * loop. Resolves when the scheduler is ready; overdue targets fire on its first tick.
   */
  async start(): Promise<void> {
    if (this.#running) return;
    const now = this.#clock.now();
    this.#wheel = new TimerWheel(now);
    this.#markT = null;
    this.#markId = '';
    while (this.#loadStep(now)) {
      /* fill to the horizon before declaring ready */
    }
    this.#running = true;
    this.#startedAt = now;
    this.#nextSweep = now + this.#sweepMs;
    this.#loop = this.#run();
  }

  /** Stops the loop; nothing is dispatched after this resolves. */
  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    this.#sleep?.abort();
    await this.#loop;
    this.#loop = null;
  }

  targetsChanged(targetIds: readonly string[]): void {
    if (targetIds.length === 0) return;
    const states = new Map(this.#queue.fireStates(targetIds).map((s) => [s.id, s]));
    let earliest = Number.POSITIVE_INFINITY;
    for (const id of targetIds) {
      const s = states.get(id);
      if (!s || s.status !== 'scheduled' || !this.#withinMark(s.fireAt, id)) {
        // Cancelled, held for approval, in flight, done, or beyond the watermark (the loader reads it later).
        this.#wheel.remove(id);
        continue;
      }
      this.#wheel.add(id, s.fireAt);
      if (s.fireAt < earliest) earliest = s.fireAt;
    }
    if (earliest < this.#wakeAt) this.#sleep?.abort();
  }

  /**
   * Holds targets in the wheel until `at` without reading the store: due targets left to
   * another daemon (publisher/share.ts), looked at again then in case it did not take them.
   */
  recheckAt(targetIds: readonly string[], at: number): void {
    for (const id of targetIds) this.#wheel.add(id, at);
    if (targetIds.length > 0 && at < this.#wakeAt) this.#sleep?.abort();
  }

  status(): SchedulerStatus {
    const now = this.#clock.now();
    const since = this.#lastTick ?? this.#startedAt;
    const stalled = this.#running && since !== null && now - since > this.#stallTicks * this.#tickMs;
    return { running: this.#running, lastTick: this.#lastTick, stalled, wheelSize: this.#wheel.size };
  }

  /** The loader's watermark (fire time), for tests and /healthz; null before the first load. */
  get loadedThrough(): number | null {
    return this.#markT;
  }

  /** How close the watermark may come before reading ahead is urgent: a tenth of the horizon, at most a minute. */
  get #slack(): number {
    return Math.min(Math.floor(this.#horizonMs / 10), 60_000);
  }

  #withinMark(fireAt: number, id: string): boolean {
    if (this.#markT === null) return false;
    return fireAt < this.#markT || (fireAt === this.#markT && id <= this.#markId);
  }

  /** Reads one batch into the wheel if it needs one; returns whether more is wanted now. */
  #loadStep(now: number): boolean {
    const until = now + this.#horizonMs;
    const free = this.#maxEntries - this.#wheel.size;
    if (free <= 0) return false;
    // Read in worthwhile steps, not a query per tick: top up when the read-ahead has shrunk
    // by a tenth of the horizon, or when a capped wheel has room for a good batch — unless
    // the watermark is about to be overtaken.
    const slack = this.#slack;
    const urgent = this.#markT === null || this.#markT <= now + slack;
    if (!urgent) {
      if (this.#markId === MAX_ID && this.#markT !== null && this.#markT >= until - slack) return false;
      if (this.#markId !== MAX_ID && free < Math.min(this.#batchSize, Math.ceil(this.#maxEntries / 10))) return false;
    }
    const room = Math.min(this.#batchSize, free);
    const rows = this.#queue.scan(this.#markT, this.#markId, until, room);
    for (const r of rows) this.#wheel.add(r.id, r.fireAt);
    if (rows.length < room) {
      this.#markT = until;
      this.#markId = MAX_ID;
      return false;
    }
    const last = rows[rows.length - 1] as { id: string; fireAt: number };
    this.#markT = last.fireAt;
    this.#markId = last.id;
    return this.#wheel.size < this.#maxEntries;
  }

  /** Safety net for a change nobody announced: overdue scheduled targets are dispatched again. */
  #sweep(now: number): void {
    const ids = this.#queue.scan(null, '', now - this.#sweepGraceMs, this.#batchSize).map((r) => r.id);
    for (const id of ids) this.#wheel.remove(id);
    this.#due(ids);
  }

  #tick(): boolean {
    const now = this.#clock.now();
    this.#due(this.#wheel.advance(now));
    const more = this.#loadStep(now);
    if (now >= this.#nextSweep) {
      this.#nextSweep = now + this.#sweepMs;
      this.#sweep(now);
    }
    this.#lastTick = now;
    return more;
  }

  #due(ids: readonly string[]): void {
    if (ids.length === 0) return;
    try {
      this.#onDue(ids);
    } catch (err) {
      this.#log?.error('dispatching due targets failed', { targets: ids.length, err });
    }
  }

  async #run(): Promise<void> {
    while (this.#running) {
      let more = false;
      let failed = false;
      try {
        more = this.#tick();
      } catch (err) {
        // A failing store leaves lastTick behind, so /healthz turns stalled while this retries.
        this.#log?.error('scheduler tick failed', { err });
        failed = true;
      }
      if (!this.#running) break;
      const now = this.#clock.now();
      const next = this.#wheel.nextWake() ?? Number.POSITIVE_INFINITY;
      // Wake before time runs past what the loader has read, however long the tick.
      let refill = Number.POSITIVE_INFINITY;
      if (this.#markT === null) refill = now;
      else if (this.#wheel.size < this.#maxEntries) {
        // Read ahead again halfway through the horizon; a wheel capped by maxEntries holds
        // everything up to the watermark, so it only needs reading shortly before that.
        refill = Math.max(now + 1, this.#markId === MAX_ID ? this.#markT - Math.floor(this.#horizonMs / 2) : this.#markT - this.#slack);
      }
      this.#wakeAt = failed ? now + this.#tickMs : more ? now : Math.min(next, now + this.#tickMs, this.#nextSweep, refill);
      if (this.#wakeAt <= now) {
        // Not a wait for time, only a yield so I/O and HTTP requests get their turn.
        await new Promise<void>((resolve) => setImmediate(resolve));
        continue;
      }
      const ctl = new AbortController();
      this.#sleep = ctl;
      try {
        await this.#clock.sleep(this.#wakeAt - now, ctl.signal);
      } catch {
        // Woken early by a change or by stop().
      }
      this.#sleep = null;
    }
  }
}
