import { PLATFORM_INFO, type ContentType, type ErrorDetail, type Platform } from '@socialpub/core';
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
}

const count = (text: string, re: RegExp) => text.match(re)?.length ?? 0;

/** UTF-16 units past which a caption is over every short limit whatever the counting (twitter-text caps a URL at 4096). */
const HUGE = 60_000;

/**
 * The rules of the core platform table for one target (caption length and counts, media
 * count and kinds), then the adapter's own checks. Paths point into the publish request.
 */
export function checkTargetRules(input: TargetRuleInput): ErrorDetail[] {
  const { platform, type, caption, captionPath, media } = input;
  const info = PLATFORM_INFO[platform];
  const label = type === info.defaultType && info.types.length === 1 ? platform : `${platform} ${type}`;
  const out: ErrorDetail[] = [];

  if (caption.length > HUGE && info.caption.max < HUGE / 5) {
    // Certainly too long (even 12 maximal URLs at 23 each stay far below); spares the exact
    // counters (twitter-text, grapheme segmentation) a multi-megabyte string.
    out.push({ path: captionPath, message: `${platform} captions are at most ${info.caption.max} characters (this one has over ${HUGE.toLocaleString('en')})` });
  } else {
    const length = captionLength(caption, info.caption.counting);
    if (length > info.caption.max) {
      out.push({ path: captionPath, message: `${platform} captions are at most ${info.caption.max} characters (this one counts ${length})` });
    }
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
  const specific = input.adapter
    .validate({ platform, type, caption, media, publicBaseUrl: input.publicBaseUrl, options: input.options ?? {} })
    .map((d) => (d.path === 'caption' || d.path === `platform_captions.${platform}` ? { ...d, path: captionPath } : d));
  const covered = new Set(specific.map((d) => d.path));
  return [...out.filter((d) => !covered.has(d.path)), ...specific];
}
