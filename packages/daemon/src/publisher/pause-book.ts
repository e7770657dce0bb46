import type { Platform } from '@socialpub/core';
import type { PauseScope, PlatformPausesRepository } from '../store/platform-pauses';
import { pauseScopeKey } from '../store/platform-pauses';

/** A limit a platform answered with, as the publisher records it. */
export interface PauseRequest {
  platform: Platform;
  userId: string;
  /** The account (its connection); null: every account of the user's platform. */
  connectionId: string | null;
  appliesTo: PauseScope;
  until: number;
  reason: string;
  platformCode: string | null;
}

/**
 * The publisher's view of the platforms' rate limits: which connections (user and
 * platform) and which platforms (an app-wide limit) are paused, and until when. Written
 * through to the store, so a pause survives a restart and the API and CLI can show it;
 * read from memory on every dispatch, and re-read from the store at start and on each
 * lease sweep (another daemon over the same file may have recorded one).
 */
export class PauseBook {
  readonly #store: PlatformPausesRepository;
  /** Scope key (see pauseScopeKey) -> until. */
  readonly #until = new Map<string, number>();

  constructor(store: PlatformPausesRepository) {
    this.#store = store;
  }

  /** Reloads the pauses still running at `now` from the store, and forgets those that ended. */
  load(now: number): void {
    this.#until.clear();
    for (const p of this.#store.active(now)) this.#until.set(pauseScopeKey(p.platform, p.userId, p.connectionId), p.until);
  }

  /**
   * When the account may send again, if its own pause, one of the user's platform (recorded
   * before accounts had labels) or its platform's app-wide pause runs at `now`; else null.
   */
  pausedUntil(userId: string, platform: Platform, now: number, connectionId: string | null = null): number | null {
    const own = connectionId === null ? 0 : this.#live(pauseScopeKey(platform, userId, connectionId), now);
    const until = Math.max(own, this.#live(pauseScopeKey(platform, userId), now), this.#live(pauseScopeKey(platform, null), now));
    return until > now ? until : null;
  }

  /** Records a pause (a pause only moves later); false when it ends by `now` (nothing to pause). */
  pause(p: PauseRequest, now: number): boolean {
    if (p.until <= now) return false;
    const userId = p.appliesTo === 'app' ? null : p.userId;
    const connectionId = p.appliesTo === 'app' ? null : p.connectionId;
    const key = pauseScopeKey(p.platform, userId, connectionId);
    this.#until.set(key, Math.max(p.until, this.#until.get(key) ?? 0));
    this.#store.set({ platform: p.platform, userId, connectionId, until: p.until, reason: p.reason, platformCode: p.platformCode }, now);
    return true;
  }

  #live(key: string, now: number): number {
    const until = this.#until.get(key);
    if (until === undefined) return 0;
    if (until <= now) {
      this.#until.delete(key);
      return 0;
    }
    return until;
  }
}
