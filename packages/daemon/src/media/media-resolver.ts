import { stat } from 'node:fs/promises';
import type { MediaItem } from '../ports/media-item';
import { PermanentError, RetryableError } from '../util/publish-errors';
import type { MediaResolver } from '../ports/media';
import { toMediaError } from '../net/media-error';
import type { MediaService } from './media-service';

/**
 * Hands media to adapters: a prepared file is read from disk (and offered to pulling
 * platforms at its prepared URL); any other URL is fetched now, through the same safe
 * path as preparation, into a temp file. Failures come back as the publisher's typed
 * errors: network trouble is retryable, a refused or broken source is permanent.
 */
export function createMediaResolver(media: MediaService): MediaResolver {
  return {
    async resolve(_userId, urls, signal) {
      const items: MediaItem[] = [];
      for (const url of urls) {
        signal.throwIfAborted();
        const file = media.fileForUrl(url);
        if (file) {
          if (file.status !== 'ready' || !file.kind || !file.mime_type || file.size === null) {
            throw new PermanentError(`the prepared media file ${url} is no longer available (prepared files last 24 hours); prepare it again`);
          }
          const path = media.pathOf(file);
          const onDisk = await stat(path).catch(() => null);
          if (onDisk?.size !== file.size) {
            throw new PermanentError(`the prepared media file ${url} is missing or damaged in the media directory; prepare it again`);
          }
          items.push({ url, kind: file.kind, mimeType: file.mime_type, size: file.size, publicUrl: media.preparedUrl(file), path, sha256: file.sha256 });
          continue;
        }
        try {
          const got = await media.fetchToTemp(url, signal);
          items.push({ url, kind: got.format.kind, mimeType: got.format.mimeType, size: got.size, publicUrl: url, path: got.path, sha256: got.sha256 });
        } catch (err) {
          if (signal.aborted) throw err;
          const e = toMediaError(err);
          const message = `media ${url} could not be fetched (${e.code}): ${e.message}`;
          throw e.transient ? new RetryableError(message, { cause: e }) : new PermanentError(message, { platformCode: e.code, cause: e });
        }
      }
      return items;
    },
  };
}
