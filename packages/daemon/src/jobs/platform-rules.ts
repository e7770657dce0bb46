import { PLATFORM_INFO, type CaptionCounting, type ContentType, type ErrorDetail, type Platform } from '@socialpub/core';
import type { PlatformAdapter, ValidationMedia } from '../platforms/adapter';
import { HASHTAG, LINK, MENTION, captionLength } from './caption-length';

export interface TargetRuleInput {
  platform: Platform;
  type: ContentType;
  caption: string;
  /** Where the caption came from in the request, for error paths. */
  captionPath: string;
  media: ValidationMedia[];
  publicBaseUrl: string | null;
  adapter: PlatformAdapter | undefined;
  /** This platform's platform_options ({} when none). */
  options?: Record<string, unknown>;
  /** The meta of the user's connection to the platform (per-account limits: see PlatformAdapter.infoFor); absent when unknown. */
  connectionMeta?: Record<string, unknown> | null;
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** UTF-16 units past which a caption is over every short limit whatever the counting (twitter-text caps a URL at 4096). */
const HUGE = 60_000;

/**
 * A lower bound of the caption's count that is already over `max`, found without counting
 * (null: count exactly). Past HUGE every short limit is exceeded whatever the counting
 * (under 'x-weighted' a URL counts 23 whatever its length, up to 4096); a code point is at
 * most two UTF-16 units and counts at least 1 under 'characters' and 'threads-utf8-emoji'.
 */
function certainlyOver(caption: string, counting: CaptionCounting, max: number): number | null {
  if (caption.length > HUGE && max < HUGE / 5) return HUGE;
  // 'utf16' and 'bytes' are counted exactly in no time (the string's length, Buffer.byteLength).
  if (counting === 'characters' || counting === 'threads-utf8-emoji') return caption.length > 2 * max ? Math.floor(caption.length / 2) : null;
  return null;
}

/** The first `units` UTF-16 units, not splitting a surrogate pair. */
function cut(text: string, units: number): string {
  const head = text.slice(0, units);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/**
 * The rules of the core platform table for one target (caption length and counts, media
 * count and kinds), then the adapter's own checks. Paths point into the publish request.
 */
export function checkTargetRules(input: TargetRuleInput): ErrorDetail[] {
  const { platform, type, caption, captionPath, media } = input;
  const meta = input.connectionMeta ?? null;
  const info = meta && input.adapter?.infoFor ? input.adapter.infoFor(meta) : PLATFORM_INFO[platform];
  const label = type === info.defaultType && info.types.length === 1 ? platform : `${platform} ${type}`;
  const out: ErrorDetail[] = [];

  const over = certainlyOver(caption, info.caption.counting, info.caption.max);
  if (over !== null) {
    // Spares the exact counters (twitter-text, grapheme segmentation: seconds on a
    // multi-megabyte string, issue 28) and the hashtag, mention and link counts.
    out.push({ path: captionPath, message: `${platform} captions are at most ${info.caption.max} characters (this one has over ${over.toLocaleString('en')})` });
  } else {
    const length = captionLength(caption, info.caption.counting, info.caption.urlLength);
    if (length > info.caption.max) {
      out.push({ path: captionPath, message: `${platform} captions are at most ${info.caption.max} ${info.caption.counting === 'graphemes' ? 'graphemes' : 'characters'} (this one counts ${length})` });
    }
    if (info.caption.maxHashtags !== undefined && count(caption, HASHTAG) > info.caption.maxHashtags) {
      out.push({ path: captionPath, message: `${platform} accepts at most ${info.caption.maxHashtags} hashtags` });
    }
    if (info.caption.maxMentions !== undefined && count(caption, MENTION) > info.caption.maxMentions) {
      out.push({ path: captionPath, message: `${platform} accepts at most ${info.caption.maxMentions} mentions` });
    }
    if (info.caption.maxLinks !== undefined && count(caption, LINK) > info.caption.maxLinks) {
      out.push({ path: captionPath, message: `${platform} accepts at most ${info.caption.maxLinks} links` });
    }
  }

  const rule = info.media[type];
  if (rule) {
    if (media.length < rule.min) {
      out.push({ path: 'media_urls', message: `${label} needs at least ${rule.min} media item${rule.min === 1 ? '' : 's'} (${rule.kinds.join(' or ')})` });
    }
    if (media.length > rule.max) {
      out.push({ path: 'media_urls', message: `${label} takes at most ${rule.max} media item${rule.max === 1 ? '' : 's'}` });
    }
    media.forEach((m, i) => {
      if (m.kind !== null && !rule.kinds.includes(m.kind)) {
        out.push({ path: `media_urls.${i}`, message: `${label} takes ${rule.kinds.join(' or ')}, not ${m.kind}` });
      }
    });
    if (rule.videoAlone && media.length > 1 && media.some((m) => m.kind === 'video')) {
      out.push({ path: 'media_urls', message: `${label} takes a video alone, without other media` });
    }
  }

  if (!input.adapter) return out;
  // The adapter knows its platform best: where it speaks about a field, its words replace
  // the table's (one problem, said once); the table still covers what the adapter leaves out.
  // Adapters name the caption as `caption` or `platform_captions.<platform>`; point both
  // at the field the caption really came from.
  // A caption certainly over the limit reaches the adapter cut to a length still over it
  // (its own counters are as slow on megabytes), and the table's words about it stand.
  const judged = over === null ? caption : cut(caption, 2 * info.caption.max + 2);
  const specific = input.adapter
    .validate({ platform, type, caption: judged, media, publicBaseUrl: input.publicBaseUrl, options: input.options ?? {}, connectionMeta: meta })
    .map((d) => (d.path === 'caption' || d.path === `platform_captions.${platform}` ? { ...d, path: captionPath } : d))
    .filter((d) => over === null || d.path !== captionPath);
  const covered = new Set(specific.map((d) => d.path));
  return [...out.filter((d) => !covered.has(d.path)), ...specific];
}
