import type { MediaItem } from '../adapter';
import { PermanentError } from '../errors';
import { readChunk } from './read-chunk';

/** Reads part of a target's media file for an upload; a file that cannot be read fails the target for good. */
export async function readMediaChunk(item: MediaItem, offset: number, length: number): Promise<Buffer> {
  try {
    return await readChunk(item.path, offset, length);
  } catch (err) {
    throw new PermanentError(`The media file for ${item.url} cannot be read: ${(err as Error).message}`, { platformCode: 'media_unavailable', cause: err });
  }
}
