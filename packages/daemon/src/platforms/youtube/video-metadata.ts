import type { YoutubeOptions } from '@socialpub/core';

/** YouTube text limits (docs/reference/platforms.md §6.3). */
export const YT_LIMITS = { titleChars: 100, descriptionBytes: 5000, tagsChars: 500 } as const;

const encoder = new TextEncoder();

/** YouTube refuses `<` and `>` in titles and descriptions (invalidTitle/invalidDescription): use look-alikes. */
function safe(text: string): string {
  return text.replace(/</g, '‹').replace(/>/g, '›');
}

/** Cuts to at most `max` UTF-8 bytes without splitting a character. */
export function truncateBytes(text: string, max: number): string {
  if (encoder.encode(text).length <= max) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = encoder.encode(ch).length;
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** The title: the caption's first non-empty line, at most 100 characters (cut with an ellipsis). */
export function titleFrom(caption: string, fallback = 'Untitled video'): string {
  const first = safe(caption.split(/\r?\n/).map((l) => l.trim()).find((l) => l !== '') ?? '').replace(/\s+/g, ' ');
  if (first === '') return fallback;
  const chars = [...first];
  return chars.length <= YT_LIMITS.titleChars ? first : chars.slice(0, YT_LIMITS.titleChars - 1).join('').trimEnd() + '…';
}

/** The caption's #hashtags as tags, within YouTube's 500-character total. */
export function tagsFrom(caption: string): string[] {
  const tags: string[] = [];
  let total = 0;
  for (const m of caption.matchAll(/(?:^|\s)#([\p{L}\p{N}_]+)/gu)) {
    const tag = m[1] as string;
    if (tags.includes(tag)) continue;
    const cost = tag.length + (tags.length > 0 ? 1 : 0);
    if (total + cost > YT_LIMITS.tagsChars) break;
    tags.push(tag);
    total += cost;
  }
  return tags;
}

export type PrivacyStatus = 'public' | 'unlisted' | 'private';

/**
 * The video resource sent when the upload session starts. Shorts use the same resource:
 * there is no API flag, YouTube classifies a vertical or square video of at most 3 minutes.
 * The job's options (platform_options.youtube, validated by core) win over the connection's
 * meta, which wins over the defaults drawn from the caption.
 */
export function videoResource(caption: string, meta: Record<string, unknown>, options: YoutubeOptions = {}) {
  const privacy =
    options.privacy_status ?? ((['public', 'unlisted', 'private'] as const).includes(meta.privacy_status as PrivacyStatus) ? (meta.privacy_status as PrivacyStatus) : 'public');
  const snippet: Record<string, unknown> = {
    title: options.title ?? titleFrom(caption, typeof meta.default_title === 'string' ? meta.default_title : undefined),
    description: options.description ?? truncateBytes(safe(caption), YT_LIMITS.descriptionBytes),
    categoryId: options.category_id ?? (typeof meta.category_id === 'string' ? meta.category_id : '22'),
  };
  const tags = options.tags ?? tagsFrom(caption);
  if (tags.length > 0) snippet.tags = tags;
  if (typeof meta.default_language === 'string') snippet.defaultLanguage = meta.default_language;
  return {
    snippet,
    status: {
      privacyStatus: privacy,
      selfDeclaredMadeForKids: options.made_for_kids ?? meta.made_for_kids === true,
      containsSyntheticMedia: meta.contains_synthetic_media === true,
      embeddable: true,
      license: 'youtube',
      publicStatsViewable: true,
    },
  };
}
