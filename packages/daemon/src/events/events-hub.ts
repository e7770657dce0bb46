import type { EventsRepository } from '../store/events';
import type { RootLogger } from '../util/logger';

export type EventsListener = (lastId: number) => void;

/**
 * Tells listeners (SSE streams, the webhook deliverer) when new events have committed.
 * Events are written by many writers — the jobs service, the triggers under the publisher
 * and the media worker, another process over the same file. Events this process writes
 * wake the hub at once (`watchAppends`: a check as soon as the writing code has returned,
 * i.e. after its synchronous commit); those of other processes (the CLI's admin commands)
 * are seen by a poll of the outbox's newest id (one indexed read) every `intervalMs`.
 * Listeners then read the outbox themselves: the hub carries no events, so nothing is lost
 * or held in memory when a listener is slow.
 */
export class EventsHub {
  readonly #events: EventsRepository;
  readonly #log: RootLogger;
  readonly #listeners = new Set<EventsListener>();
  #last: number;
  #timer: NodeJS.Timeout | null = null;
  #unwatch: (() => void) | null = null;
  #kick: NodeJS.Immediate | null = null;

  constructor(events: EventsRepository, log: RootLogger) {
    this.#events = events;
    this.#log = log;
    this.#last = events.lastId();
  }

  get lastId(): number {
    return this.#last;
  }

  subscribe(listener: EventsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Reads the newest id; tells every listener when it moved. */
  check(): void {
    let last: number;
    try {
      last = this.#events.lastId();
    } catch (error) {
      // The database is closing or busy; the next check tries again.
      this.#log.debug('events check failed', { error: (error as Error).message });
      return;
    }
    if (last === this.#last) return;
    this.#last = last;
    for (const listener of [...this.#listeners]) {
      try {
        listener(last);
      } catch (error) {
        this.#log.error('events listener failed', { error: (error as Error).message });
      }
    }
  }

  /**
   * Checks right after this process writes an event. The write happens inside a
   * transaction (the callback runs before its commit), so the check waits for the end of
   * the current synchronous run — better-sqlite3's transactions commit within it; a rolled
   * back one leaves the newest id as it was and nobody is woken. Writes of one run share
   * one check.
   */
  watchAppends(): void {
    this.#unwatch ??= this.#events.onAppend(() => {
      this.#kick ??= setImmediate(() => {
        this.#kick = null;
        this.check();
      });
    });
  }

  /** Watches every `intervalMs` of real time (a wake-up only: no timing of the product depends on it). */
  start(intervalMs = 20): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.check(), intervalMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    this.#unwatch?.();
    this.#unwatch = null;
    if (this.#kick) clearImmediate(this.#kick);
    this.#kick = null;
    this.#listeners.clear();
  }
}
