import { fail, isPublicHttpUrl } from '../../meta/sim/core';

/**
 * The option parameters of POST /{ig-user-id}/media, checked as Instagram does
 * (docs/reference/platforms.md §12.1.1, §1.1, §1.6), and read back for the sandbox record.
 */

export interface ContainerKind {
  /** IMAGE, VIDEO, REELS, STORIES, CAROUSEL. */
  type: string;
  carouselItem: boolean;
}

/** A Graph list parameter: a JSON array, or comma-separated values. */
function list(raw: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed;
  } catch {
    // Not JSON: comma-separated.
  }
  return raw.split(',').map((s) => s.trim()).filter(Boolean);
}

function tags(raw: string): Record<string, unknown>[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return fail(100, 'Invalid parameter: user_tags must be a JSON array of {username, x, y}.');
  }
  if (!Array.isArray(parsed) || parsed.some((t) => typeof t !== 'object' || t === null || Array.isArray(t))) fail(100, 'Invalid parameter: user_tags must be a JSON array of {username, x, y}.');
  return parsed as Record<string, unknown>[];
}

const USERNAME = /^[A-Za-z0-9._]{1,30}$/;

export function checkInstagramOptions(p: Record<string, string>, k: ContainerKind): void {
  const story = k.type === 'STORIES';
  const image = k.type === 'IMAGE';
  const reel = k.type === 'REELS';
  const video = k.type === 'VIDEO' || reel;
  if (p.collaborators !== undefined) {
    if (story) fail(100, 'Param collaborators is not supported for stories.');
    if (k.carouselItem) fail(100, 'param collaborators is not allowed on carousel items.');
    const names = list(p.collaborators);
    if (names.length > 3) fail(100, 'Invalid parameter: a post may have at most 3 collaborators.', { userMsg: 'You can invite up to 3 collaborators.' });
    for (const n of names) if (typeof n !== 'string' || !USERNAME.test(n)) fail(100, `Invalid parameter: collaborator ${JSON.stringify(n)} is not an Instagram username.`);
  }
  if (p.location_id !== undefined) {
    if (story) fail(100, 'Param location_id is not supported for stories.');
    if (k.carouselItem) fail(100, 'Param location_id is not supported on images or videos in carousels.');
    if (!/^\d+$/.test(p.location_id)) fail(100, 'Invalid parameter: location_id.', { userMsg: 'INSTAGRAM_PLATFORM_API__INVALID_LOCATION_ID' });
  }
  if (p.user_tags !== undefined) {
    if (k.type === 'CAROUSEL') fail(100, 'Param user_tags is not supported on the carousel container; tag the carousel images.');
    for (const t of tags(p.user_tags)) {
      if (typeof t.username !== 'string' || !USERNAME.test(t.username)) fail(100, 'Invalid parameter: every user tag needs a username.');
      const positioned = t.x !== undefined || t.y !== undefined;
      // Images need positions; stories take them optionally; videos ignore them.
      if (image && !positioned) fail(100, 'Invalid parameter: a user tag on an image needs username, x and y.');
      if (positioned && !video) {
        for (const axis of ['x', 'y'] as const) {
          const v = t[axis];
          if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) fail(100, `Invalid parameter: user_tags ${axis} must be a float between 0.0 and 1.0.`);
        }
      }
    }
  }
  if (p.share_to_feed !== undefined && !reel) fail(100, 'Param share_to_feed is only supported for REELS.');
  if (p.cover_url !== undefined) {
    if (!reel) fail(100, 'Param cover_url is only supported for REELS.');
    if (!isPublicHttpUrl(p.cover_url)) fail(9004, 'The media could not be fetched from this URI: cover_url.', { subcode: 2207052 });
  }
  if (p.thumb_offset !== undefined && (!video || !/^\d+$/.test(p.thumb_offset))) fail(1, 'The thumb_offset is invalid.', { subcode: 2207057 });
  if (p.alt_text !== undefined) {
    if (!image) fail(100, `Param alt_text is only supported for images${k.type === 'CAROUSEL' ? ' (set it on the carousel images)' : ''}.`);
    if ([...p.alt_text].length > 1000) fail(100, 'Param alt_text must be at most 1000 characters long.');
  }
}

/** The options a container was made with, as values (lists and tags parsed), for `socialpub sandbox posts`. */
export function instagramOptionsOf(p: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (p.collaborators !== undefined) out.collaborators = list(p.collaborators);
  if (p.location_id !== undefined) out.location_id = p.location_id;
  if (p.user_tags !== undefined) out.user_tags = JSON.parse(p.user_tags) as unknown;
  if (p.share_to_feed !== undefined) out.share_to_feed = p.share_to_feed === 'true' || p.share_to_feed === '1';
  if (p.cover_url !== undefined) out.cover_url = p.cover_url;
  if (p.thumb_offset !== undefined) out.thumb_offset = Number(p.thumb_offset);
  if (p.alt_text !== undefined) out.alt_text = p.alt_text;
  return out;
}
