import { PLATFORMS, PLATFORM_INFO, platformDescriptions, platformsWithInWords, type ContentType, type MediaRule } from '@socialpub/core';

function mediaText(rule: MediaRule | undefined): string {
  if (!rule) return 'no media';
  const kinds = rule.kinds.join(' or ');
  if (rule.min === 0) return `text alone or up to ${rule.max} ${kinds}`;
  if (rule.max === 1) return `exactly 1 ${kinds} (required)`;
  return `${rule.min} to ${rule.max} ${kinds} (required)`;
}

/** One line per platform: its content types (default first), what each needs, the caption limit. Built from core's table. */
export function platformRulesText(): string {
  return PLATFORMS.map((p) => {
    const info = PLATFORM_INFO[p];
    const types = info.types.map((t: ContentType) => `${t}${t === info.defaultType ? ' (default)' : ''}: ${mediaText(info.media[t])}`).join('; ');
    // Mastodon's limits are each server's own: the table's are a default server's.
    const perServer = info.caption.counting === 'mastodon' ? "; each server has its own limits (list_platforms shows the connected server's)" : '';
    return `- ${p}: ${types}; caption at most ${info.caption.max} (${info.caption.counting})${perServer}`;
  }).join('\n');
}

/** The rules of each platform's description that agents need (mcp.publishRule), one line each. */
function platformNotes(): string {
  return platformDescriptions()
    .flatMap((d) => (d.mcp.publishRule ? [`- ${d.id}: ${d.mcp.publishRule}\n`] : []))
    .join('');
}

/** The rules agents most often get wrong, shared by the publish and validate descriptions. */
export const PUBLISH_RULES = `Rules:
- Exactly one of publish_now: true or scheduled_for.
- Times are ISO 8601 with a zone: 2026-12-25T10:00:00Z or 2026-12-25T11:00:00+01:00 (no zone, a date alone or more than 60 s in the past: refused).
- platform_types maps a platform to its content types; a platform left out gets its default type.
- type_schedule (needs scheduled_for) maps a content type ("story"), a platform ("twitter") or both ("instagram.story") to an offset from scheduled_for (+1h, +30m, +1h30m; "+0h" is the base time) or an absolute ISO 8601 time; the most specific key wins.
- media_urls are public http(s) URLs of prepared files (prepare_media or upload_file return them), at most 10.
- thread: thread parts [{caption, media_urls}] published as a reply chain after the post on ${platformsWithInWords('thread')} (other platforms post alone); each part follows the platform's caption and media rules.
- first_comment: a string (or {platform: text}) posted under the post on ${platformsWithInWords('firstComment')}; its failure leaves the post published (get_post shows comment.error).
${platformNotes()}Content types per platform (media each needs; caption limit):
${platformRulesText()}`;
