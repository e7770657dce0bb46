import type { ErrorDetail, ThreadsOptions } from '@socialpub/core';
import type { ValidationInput } from '../adapter';
import { links } from '../meta/text-rules';

/**
 * Which Threads options fit the post (docs/reference/platforms.md §12.4): link_attachment only
 * on a text post (media_type=TEXT), and with the text's own links at most 5 distinct links.
 * reply_control, topic_tag and quote_post_id fit every post.
 */
export function validateThreadsOptions(input: ValidationInput): ErrorDetail[] {
  const o = (input.options ?? {}) as ThreadsOptions;
  const out: ErrorDetail[] = [];
  const link = o.link_attachment;
  if (link === undefined) return out;
  const p = 'platform_options.threads.link_attachment';
  if (input.media.length > 0) out.push({ path: p, message: 'link_attachment is for text posts only (Threads refuses it with media)' });
  const inText = links(input.caption ?? '');
  const all = new Set([...inText, link.toLowerCase()]);
  // Too many links in the text alone is the caption's problem (reported there).
  if (all.size > 5 && inText.length <= 5) out.push({ path: p, message: `Threads posts may contain at most 5 links, link_attachment included; this one has ${all.size}` });
  return out;
}
