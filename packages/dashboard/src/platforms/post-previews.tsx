import type { Platform } from '@socialpub/core/platforms';
import type { ThreadPart } from '../components/thread-preview';
import { captionFor } from '../lib/caption';
import type { Post } from '../lib/types';
import { NetworkPreview } from './network-preview';
import { splitEntry } from '../lib/account-name';

/** The replies `network` publishes: a list is every threading network's, an object names each. */
function threadOf(thread: unknown, network: string): ThreadPart[] {
  if (Array.isArray(thread)) return thread as ThreadPart[];
  if (thread && typeof thread === 'object') return ((thread as Record<string, ThreadPart[] | undefined>)[network] ?? []) as ThreadPart[];
  return [];
}

function firstCommentOf(comment: unknown, network: string): string | null {
  if (typeof comment === 'string') return comment;
  if (comment && typeof comment === 'object') return (comment as Record<string, string | undefined>)[network] ?? null;
  return null;
}

/** A post as each of its accounts' networks will show it, with that network's thread and first comment. */
export function PostPreviews({ post }: { post: Post }) {
  const options = (post.platform_options ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const types = post.platform_types as Record<string, string[]>;
  return (
    <div class="previews">
      {post.platforms.map((key) => {
        const { platform: network, label } = splitEntry(key);
        return (
          <NetworkPreview
            key={key}
            platform={network as Platform}
            label={label}
            types={types[key] ?? types[network] ?? []}
            caption={captionFor(post, key)}
            media={post.media_urls}
            options={options[key] ?? options[network] ?? null}
            thread={threadOf(post.thread, network)}
            firstComment={firstCommentOf(post.first_comment, network)}
          />
        );
      })}
    </div>
  );
}
