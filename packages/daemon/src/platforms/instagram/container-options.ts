import type { InstagramOptions, InstagramUserTag } from '@socialpub/core';
import type { Params } from '../meta/graph-client';

/**
 * The platform_options.instagram parameters of each container, as Graph documents them
 * (docs/reference/platforms.md §12.1.1): lists as JSON arrays (`collaborators`,
 * `user_tags` `[{"username","x","y"}]`), `thumb_offset` as a string (Graph codegen types it
 * so). Which option fits which container was checked when the post was accepted.
 */

/** The tags on media item `index`, as Instagram takes them; positions only where `positioned`. */
function tagsFor(o: InstagramOptions, index: number, positioned: boolean): string | undefined {
  const tags = (o.user_tags ?? []).filter((t) => (t.media_index ?? 0) === index);
  if (tags.length === 0) return undefined;
  const wire = (t: InstagramUserTag) => (positioned && t.x !== undefined && t.y !== undefined ? { username: t.username, x: t.x, y: t.y } : { username: t.username });
  return JSON.stringify(tags.map(wire));
}

const altFor = (o: InstagramOptions, index: number): string | undefined => {
  const alt = o.alt_text;
  if (alt === undefined) return undefined;
  return typeof alt === 'string' ? (index === 0 ? alt : undefined) : (alt[index] ?? undefined);
};

/** Options every post container takes (a single image, a reel, a carousel's own container); never stories. */
function postParams(o: InstagramOptions): Params {
  return {
    collaborators: o.collaborators?.length ? JSON.stringify(o.collaborators) : undefined,
    location_id: o.location_id,
  };
}

/** A single feed image. */
export function imageParams(o: InstagramOptions): Params {
  return { ...postParams(o), user_tags: tagsFor(o, 0, true), alt_text: altFor(o, 0) };
}

/** A reel (type reels, or a single feed video); share_to_feed defaults to true, as before options existed. */
export function reelParams(o: InstagramOptions, reelsTab: boolean): Params {
  return {
    ...postParams(o),
    share_to_feed: reelsTab ? (o.share_to_feed ?? true) : true,
    cover_url: o.cover_url,
    thumb_offset: o.thumb_offset === undefined ? undefined : String(o.thumb_offset),
    user_tags: tagsFor(o, 0, false),
  };
}

/** A carousel's own container. */
export const carouselParams = postParams;

/** Carousel child `index`: its user tags and alt text (images only). */
export function childParams(o: InstagramOptions, index: number, kind: 'image' | 'video'): Params {
  return kind === 'image' ? { user_tags: tagsFor(o, index, true), alt_text: altFor(o, index) } : {};
}

/** Story `index`: its user tags (positions optional since 2025-07-09). */
export function storyParams(o: InstagramOptions, index: number): Params {
  return { user_tags: tagsFor(o, index, true) };
}
