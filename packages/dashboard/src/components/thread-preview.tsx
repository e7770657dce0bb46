import type { Platform } from '@socialpub/core/platforms';
import { platformName } from '../lib/names';
import { CaptionPreview, MediaFrame } from './preview';

export interface ThreadPart {
  caption?: string | null | undefined;
  media_urls?: readonly string[] | null | undefined;
}

/**
 * The replies the network publishes after the post, in order, each as the network shows a
 * post: its text counted by the network's rules and its media (never "(+1 media)").
 */
export function ThreadPreview({ platform, parts, ratio }: { platform: Platform; parts: readonly ThreadPart[]; ratio: string }) {
  return (
    <section class="thread" aria-label={`Thread on ${platformName(platform)}`}>
      <h5>Thread: {parts.length} more post{parts.length === 1 ? '' : 's'} in reply</h5>
      <ol class="thread-parts">
        {parts.map((part, i) => {
          const media = part.media_urls ?? [];
          return (
            <li key={i}>
              {(part.caption ?? '').trim() !== '' && <CaptionPreview text={part.caption ?? ''} platform={platform} />}
              {media.length > 0 && (
                <div class="media-row">
                  {media.map((m, j) => (
                    <MediaFrame key={m} url={m} ratio={ratio} what="reply media" index={j} count={media.length} />
                  ))}
                </div>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
