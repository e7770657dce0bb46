import type { MediaItem, ValidationMedia } from './media/media-item';

/**
 * Seams between the parts of the daemon, so each can be built and tested alone and the
 * composition root (daemon.ts) wires the real ones.
 */

/** What the scheduler exposes to the HTTP layer. */
export interface SchedulerHooks {
  /** Targets were created, re-timed, approved or cancelled: re-read them from the store now. */
  targetsChanged(targetIds: readonly string[]): void;
  status(): SchedulerStatus;
}

export interface SchedulerStatus {
  running: boolean;
  /** Epoch ms of the last wheel tick, or null before the first. */
  lastTick: number | null;
  stalled: boolean;
  wheelSize: number;
}

/** Used when no scheduler runs (tests of the HTTP layer alone, admin commands). */
export const idleScheduler: SchedulerHooks = {
  targetsChanged: () => {},
  status: () => ({ running: false, lastTick: null, stalled: false, wheelSize: 0 }),
};

/** What publish/validate learn about media_urls before accepting (synchronous, from SQLite). */
export interface MediaLookup {
  describe(userId: string, urls: readonly string[]): ValidationMedia[];
}

/** What the publisher needs to hand media to an adapter: local files, and public URLs where there are. */
export interface MediaResolver {
  resolve(userId: string, urls: readonly string[], signal: AbortSignal): Promise<MediaItem[]>;
  /** A prepared file that a not-yet-done target needs is kept past its 24 h. */
}

const EXT_KIND: Record<string, 'image' | 'video' | 'document'> = {
  jpg: 'image', jpeg: 'image', png: 'image', gif: 'image', mp4: 'video', mov: 'video', avi: 'video', m4v: 'video', pdf: 'document',
};

/** Until media preparation is wired: kinds guessed from the URL's extension. */
export const guessingMediaLookup: MediaLookup = {
  describe: (_userId, urls) =>
    urls.map((url) => {
      let ext: string;
      try {
        ext = new URL(url).pathname.split('.').pop()?.toLowerCase() ?? '';
      } catch {
        ext = '';
      }
      return { url, kind: EXT_KIND[ext] ?? null, mimeType: null, size: null, prepared: false };
    }),
};
