import type { ErrorDetail, InstagramOptions } from '@socialpub/core';
import type { ValidationInput } from '../adapter';

const path = (field: string) => `platform_options.instagram.${field}`;

/** The container an Instagram target becomes (docs/reference/platforms.md §1.1): what decides which options fit. */
type Shape = 'image' | 'video' | 'carousel' | 'story' | 'reel' | 'unknown';

function shapeOf(input: ValidationInput): Shape {
  if (input.type === 'story') return 'story';
  if (input.type === 'reels') return 'reel';
  if (input.media.length > 1) return 'carousel';
  const kind = input.media[0]?.kind;
  // A single feed video is published as a reel (media_type=REELS), as Instagram requires.
  return kind === 'image' ? 'image' : kind === 'video' ? 'video' : 'unknown';
}

const LABEL: Record<Shape, string> = { image: 'a feed image', video: 'a feed video', carousel: 'a carousel', story: 'stories', reel: 'reels', unknown: 'this post' };

/**
 * Which Instagram options fit the target's content type and media
 * (docs/reference/platforms.md §12.1.1): collaborators and location on feed posts and reels
 * (a carousel's own container), not stories; share_to_feed on reels; a cover (cover_url or
 * thumb_offset) on reels and feed videos; alt_text on images; user tags per image (with a
 * position), per reel (without) or per story. A misfit is a 400 naming the field.
 */
export function validateInstagramOptions(input: ValidationInput): ErrorDetail[] {
  const o = (input.options ?? {}) as InstagramOptions;
  const shape = shapeOf(input);
  const out: ErrorDetail[] = [];
  const refuse = (field: keyof InstagramOptions, why: string) => out.push({ path: path(field), message: `${field} ${why}` });
  const notOn = (field: keyof InstagramOptions, fits: string) => refuse(field, `is not available for ${LABEL[shape]} (${fits})`);

  if (shape === 'story') {
    if (o.collaborators !== undefined) notOn('collaborators', 'feed posts and reels only');
    if (o.location_id !== undefined) notOn('location_id', 'feed posts and reels only');
  }
  if (o.share_to_feed !== undefined && shape !== 'reel') notOn('share_to_feed', 'type reels only; a feed video always appears in the feed');
  for (const field of ['cover_url', 'thumb_offset'] as const) {
    if (o[field] !== undefined && !['reel', 'video', 'unknown'].includes(shape)) notOn(field, 'reels and feed videos only');
  }
  if (o.alt_text !== undefined) out.push(...altTextIssues(input, shape, o.alt_text));
  o.user_tags?.forEach((tag, i) => out.push(...userTagIssues(input, shape, tag, i)));
  return out;
}

function altTextIssues(input: ValidationInput, shape: Shape, alt: NonNullable<InstagramOptions['alt_text']>): ErrorDetail[] {
  const p = path('alt_text');
  if (shape === 'story' || shape === 'reel' || shape === 'video') return [{ path: p, message: `alt_text is not available for ${LABEL[shape]} (images only)` }];
  if (typeof alt === 'string') {
    return shape === 'carousel' ? [{ path: p, message: 'a carousel takes alt_text as a list with one entry per media item (null for items without)' }] : [];
  }
  if (alt.length !== input.media.length) return [{ path: p, message: `alt_text has ${alt.length} entries for ${input.media.length} media item${input.media.length === 1 ? '' : 's'}` }];
  return alt.flatMap((text, i) => (text !== null && input.media[i]?.kind === 'video' ? [{ path: `${p}.${i}`, message: `media item ${i} is a video; alt_text is for images only (use null)` }] : []));
}

function userTagIssues(input: ValidationInput, shape: Shape, tag: NonNullable<InstagramOptions['user_tags']>[number], i: number): ErrorDetail[] {
  const p = `${path('user_tags')}.${i}`;
  const index = tag.media_index ?? 0;
  if (index >= input.media.length) return [{ path: `${p}.media_index`, message: `there is no media item ${index} (media_urls has ${input.media.length})` }];
  if (index > 0 && shape !== 'carousel' && shape !== 'story') return [{ path: `${p}.media_index`, message: `${LABEL[shape]} has one media item; media_index is 0` }];
  const kind = input.media[index]?.kind ?? null;
  const positioned = tag.x !== undefined;
  if (shape === 'story') return [];
  if (kind === 'video' || shape === 'reel' || shape === 'video') {
    if (shape === 'carousel') return [{ path: `${p}.media_index`, message: `media item ${index} is a video; Instagram tags users on carousel images only` }];
    return positioned ? [{ path: `${p}.x`, message: 'videos take user tags without x and y (Instagram ignores positions on videos)' }] : [];
  }
  if (kind === 'image' && !positioned) return [{ path: `${p}.x`, message: 'a tag on an image needs x and y (0.0 to 1.0 from the top-left)' }];
  return [];
}
