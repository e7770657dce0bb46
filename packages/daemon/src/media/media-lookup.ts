import type { ValidationMedia } from '../ports/media-item';
import { guessingMediaLookup, type MediaLookup } from '../ports/media';
import type { MediaService } from './media-service';

/**
 * Describes media_urls for validation, synchronously from SQLite: a file prepared here
 * and still served is known from its bytes (whoever prepared it: its URL is public); anything else is guessed from
 * its extension (and checked from its bytes at publish time).
 */
export function createMediaLookup(media: MediaService): MediaLookup {
  return {
    describe(userId, urls) {
      const now = media.clock.now();
      return urls.map((url): ValidationMedia => {
        const file = media.fileForUrl(url);
        if (file && file.status === 'ready' && file.kind && !media.isExpired(file, now)) {
          return { url, kind: file.kind, mimeType: file.mime_type, size: file.size, prepared: true };
        }
        return guessingMediaLookup.describe(userId, [url])[0] as ValidationMedia;
      });
    },
  };
}
