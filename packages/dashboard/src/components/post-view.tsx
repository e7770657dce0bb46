import type { Platform } from '@socialpub/core/platforms';
import { accountTargetName, targetKey } from '../lib/account-name';
import { captionFor } from '../lib/caption';
import { platformName } from '../lib/names';
import { formatInZone } from '../lib/time';
import type { Post } from '../lib/types';
import { HoldLine } from './hold-line';
import { StatusBadge } from './notice';
import { OptionsList, PlatformPreview } from './preview';

/** Each target: platform (with the account's label when it is not the one labelled default), type, when it goes out in the person's zone, status, and what holds it (HoldLine). */
export function TargetTimes({ post, zone }: { post: Post; zone: string }) {
  return (
    <ul class="targets">
      {post.targets.map((t) => (
        <li key={targetKey(t)}>
          <strong>{accountTargetName(t)}</strong>{' '}
          <time dateTime={t.scheduled_for ?? undefined}>{formatInZone(t.scheduled_for, zone)}</time> <StatusBadge status={t.status} />
          <HoldLine target={t} zone={zone} />
        </li>
      ))}
    </ul>
  );
}

/** A post's per-platform previews, with its thread and first comments. */
export function PostPreviews({ post }: { post: Post }) {
  const options = (post.platform_options ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const types = post.platform_types as Record<string, string[]>;
  const thread = post.thread as unknown;
  const firstComment = post.first_comment as unknown;
  return (
    <div class="previews">
      {post.platforms.map((p) => (
        <PlatformPreview key={p} platform={p as Platform} types={types[p] ?? []} caption={captionFor(post, p)} media={post.media_urls} options={options[p] ?? null} />
      ))}
      {thread !== undefined && thread !== null && (
        <section class="preview" aria-label="thread">
          <h4>Thread</h4>
          <ThreadParts thread={thread} />
        </section>
      )}
      {firstComment !== undefined && firstComment !== null && (
        <section class="preview" aria-label="first comment">
          <h4>First comment</h4>
          {typeof firstComment === 'string' ? <p class="caption-text">{firstComment}</p> : <OptionsList options={firstComment as Record<string, unknown>} />}
        </section>
      )}
    </div>
  );
}

function ThreadParts({ thread }: { thread: unknown }) {
  const lists: [string, unknown[]][] = Array.isArray(thread) ? [['every platform', thread]] : Object.entries(thread as Record<string, unknown[]>).map(([p, parts]) => [platformName(p), parts]);
  return (
    <>
      {lists.map(([who, parts]) => (
        <div key={who}>
          <p class="muted">{who}</p>
          <ol>
            {parts.map((part, i) => (
              <li key={i} class="caption-text">
                {(part as { caption?: string }).caption ?? ''}
                {((part as { media_urls?: string[] }).media_urls ?? []).length ? ` (+${(part as { media_urls: string[] }).media_urls.length} media)` : ''}
              </li>
            ))}
          </ol>
        </div>
      ))}
    </>
  );
}

export function SourceLine({ post, zone }: { post: Post; zone: string }) {
  return (
    <p class="muted source">
      Created by <strong>{post.source}</strong> on {formatInZone(post.created_at, zone)} · {post.job_id}
      {post.series_id ? ` · repeat ${post.occurrence ?? ''} of ${post.series_id}` : ''}
      {post.queue_slot ? ` · queue slot ${post.queue_slot}` : ''}
    </p>
  );
}
