import type { Platform } from '@socialpub/core';

/**
 * Per-platform admission: at most `limit` tasks of a platform run at once, the rest wait
 * in arrival order (which is due order, as the wheel fires in due order); and a platform
 * can be paused until a time (its rate limit), without touching the others.
 */
export class PlatformGate<T> {
  readonly #limit: (platform: Platform) => number;
  readonly #running = new Map<Platform, number>();
  readonly #waiting = new Map<Platform, T[]>();
  readonly #pausedUntil = new Map<Platform, number>();

  constructor(limit: (platform: Platform) => number) {
    this.#limit = limit;
  }

  /** Queues a task; returns the tasks that may start now (in order). */
  push(platform: Platform, task: T): T[] {
    let q = this.#waiting.get(platform);
    if (!q) this.#waiting.set(platform, (q = []));
    q.push(task);
    return this.#admit(platform);
  }

  /** A task of the platform ended; returns the tasks that may start now. */
  done(platform: Platform): T[] {
    this.#running.set(platform, Math.max(0, (this.#running.get(platform) ?? 0) - 1));
    return this.#admit(platform);
  }

  pause(platform: Platform, until: number): void {
    this.#pausedUntil.set(platform, Math.max(until, this.#pausedUntil.get(platform) ?? 0));
  }

  /** The time the platform is paused until, if it is paused at `now`. */
  pausedUntil(platform: Platform, now: number): number | null {
    const until = this.#pausedUntil.get(platform);
    if (until === undefined) return null;
    if (until <= now) {
      this.#pausedUntil.delete(platform);
      return null;
    }
    return until;
  }

  /** Removes and returns every waiting task of the platform (a pause hands them back to the store). */
  drain(platform: Platform): T[] {
    const q = this.#waiting.get(platform) ?? [];
    this.#waiting.delete(platform);
    return q;
  }

  /** Removes and returns every waiting task (shutdown). */
  drainAll(): T[] {
    const all = [...this.#waiting.values()].flat();
    this.#waiting.clear();
    return all;
  }

  get waiting(): number {
    let n = 0;
    for (const q of this.#waiting.values()) n += q.length;
    return n;
  }

  #admit(platform: Platform): T[] {
    const q = this.#waiting.get(platform);
    const out: T[] = [];
    let running = this.#running.get(platform) ?? 0;
    while (q && q.length > 0 && running < this.#limit(platform)) {
      out.push(q.shift() as T);
      running++;
    }
    this.#running.set(platform, running);
    return out;
  }
}
