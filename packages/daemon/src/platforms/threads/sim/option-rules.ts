import { fail, isPublicHttpUrl } from '../../meta/sim/core';

const REPLY_CONTROLS = new Set(['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only']);

/**
 * The option parameters of POST /{threads-user-id}/threads, checked as Threads does
 * (docs/reference/platforms.md §12.4): reply_control values, topic_tag rules, a well-formed
 * link_attachment and quote_post_id. (link_attachment on a non-TEXT container and the link
 * count are the simulator's text checks.)
 */
export function checkThreadsOptions(p: Record<string, string>, carouselItem: boolean): void {
  if (carouselItem) {
    for (const k of ['reply_control', 'topic_tag', 'quote_post_id'] as const) if (p[k] !== undefined) fail(100, `Param ${k} is not supported on carousel items.`);
  }
  if (p.reply_control !== undefined && !REPLY_CONTROLS.has(p.reply_control)) {
    fail(100, `Param reply_control must be one of ${[...REPLY_CONTROLS].join(', ')}.`);
  }
  if (p.topic_tag !== undefined) {
    const n = [...p.topic_tag].length;
    if (n < 1 || n > 50) fail(100, 'Param topic_tag must be between 1 and 50 characters long.');
    if (/[.&]/.test(p.topic_tag)) fail(100, 'Param topic_tag must not contain periods (.) or ampersands (&).');
  }
  if (p.link_attachment !== undefined && !isPublicHttpUrl(p.link_attachment)) fail(100, 'Param link_attachment must be a valid, publicly accessible URL.');
  if (p.quote_post_id !== undefined && !/^\d+$/.test(p.quote_post_id)) fail(100, `Param quote_post_id ${JSON.stringify(p.quote_post_id)} is not a valid Threads media id.`);
}

/** The options a post was made with, for `socialpub sandbox posts`. */
export function threadsOptionsOf(p: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of ['reply_control', 'topic_tag', 'link_attachment', 'quote_post_id'] as const) if (p[k] !== undefined) out[k] = p[k];
  return out;
}

/** The fields a published post reads back for its options (is_quote_post, quoted_post, link_attachment_url, topic_tag). */
export function threadsReadBack(p: Record<string, string>): Record<string, unknown> {
  return {
    is_quote_post: p.quote_post_id !== undefined,
    ...(p.quote_post_id !== undefined ? { quoted_post: { id: p.quote_post_id } } : {}),
    ...(p.link_attachment !== undefined ? { link_attachment_url: p.link_attachment } : {}),
    ...(p.topic_tag !== undefined ? { topic_tag: p.topic_tag } : {}),
  };
}
