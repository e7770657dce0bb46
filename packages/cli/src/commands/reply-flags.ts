import { COMMENT_PLATFORMS, type Platform, type PublishRequestInput } from '@socialpub/core';
import { UsageError } from '../errors';
import { parsePlatform } from '../platform-name';

export interface ReplyFlags {
  /** `--thread "<text>"`, repeatable: the thread parts in order. */
  thread: string[];
  /** `--thread-media <files>`, repeatable: the k-th belongs to the k-th --thread; `-` for none; comma-separated for several. */
  threadMedia: string[];
  /** `--first-comment "<text>"`: for every platform that takes one. */
  firstComment?: string | undefined;
  /** `--first-comment-for <platform=text>`, repeatable: one platform's comment. */
  firstCommentFor: string[];
}

/**
 * The request's `thread` and `first_comment` from the flags. Each --thread-media is paired by
 * position with the --thread of the same rank; its files and URLs go through `resolveMedia`
 * (local files are uploaded) like --media.
 */
export async function replyFields(
  o: ReplyFlags,
  platforms: readonly Platform[],
  resolveMedia: (items: string[], flag: string) => Promise<string[]>,
): Promise<Pick<PublishRequestInput, 'thread' | 'first_comment'>> {
  const out: Pick<PublishRequestInput, 'thread' | 'first_comment'> = {};
  if (o.threadMedia.length > o.thread.length) {
    throw new UsageError(`--thread-media: ${o.threadMedia.length} given for ${o.thread.length} --thread part(s); each --thread-media belongs to the --thread of the same rank (use - for a part without media)`);
  }
  if (o.thread.length > 0) {
    const parts = [];
    for (const [i, caption] of o.thread.entries()) {
      const spec = o.threadMedia[i]?.trim() ?? '-';
      const items = spec === '-' || spec === '' ? [] : spec.split(',').map((s) => s.trim()).filter(Boolean);
      const media = items.length ? await resolveMedia(items, '--thread-media') : [];
      parts.push({ ...(caption.trim() ? { caption } : {}), ...(media.length ? { media_urls: media } : {}) });
    }
    out.thread = parts;
  }
  if (o.firstComment !== undefined && o.firstCommentFor.length > 0) throw new UsageError('give --first-comment or --first-comment-for, not both');
  if (o.firstComment !== undefined) out.first_comment = o.firstComment;
  if (o.firstCommentFor.length > 0) {
    const per: Record<string, string> = {};
    for (const a of o.firstCommentFor) {
      const eq = a.indexOf('=');
      if (eq < 1) throw new UsageError(`--first-comment-for: expected platform=text, got ${JSON.stringify(a)}`);
      const platform = parsePlatform(a.slice(0, eq), '--first-comment-for');
      if (!platforms.includes(platform)) throw new UsageError(`--first-comment-for: ${platform} is not among the platforms (${platforms.join(', ')})`);
      if (!(COMMENT_PLATFORMS as readonly string[]).includes(platform)) throw new UsageError(`--first-comment-for: ${platform} takes no comments (${COMMENT_PLATFORMS.join(', ')} do)`);
      per[platform] = a.slice(eq + 1);
    }
    out.first_comment = per;
  }
  return out;
}
