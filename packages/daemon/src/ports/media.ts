import type { MediaItem, ValidationMedia } from './media-item';

/**
 * The media seams: what the jobs service and the publisher need from media/, implemented
 * there (media-lookup.ts, media-resolver.ts) and wired by the composition root.
 */

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
