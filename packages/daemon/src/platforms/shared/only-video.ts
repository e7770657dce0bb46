import type { MediaItem } from '../adapter';
import { PermanentError } from '../errors';

/** The video a video-only platform (TikTok, YouTube) uploads: without one, the target fails for good. */
export function onlyVideo(media: readonly MediaItem[], subject: string): MediaItem {
  const item = media[0];
  if (!item || item.kind !== 'video') throw new PermanentError(`${subject} needs exactly one video`, { platformCode: 'invalid_media' });
  return item;
}
