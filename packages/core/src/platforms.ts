/** The platforms socialpub publishes to, and what each accepts. */
export const PLATFORMS = ['instagram', 'facebook', 'twitter', 'threads', 'tiktok', 'youtube', 'bluesky', 'mastodon', 'linkedin', 'pinterest'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const CONTENT_TYPES = ['feed', 'story', 'reels', 'tweet', 'post', 'video', 'shorts', 'photo', 'document', 'pin', 'video_pin'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

/** `document`: a PDF (LinkedIn document posts). */
export type MediaKind = 'image' | 'video' | 'document';

export interface MediaRule {
  /** Fewest media items the type accepts (0: text alone is fine). */
  min: number;
  /** Most media items one post of this type carries. */
  max: number;
  /** Kinds accepted. */
  kinds: readonly MediaKind[];
  /** When a video is present, it must be the only item. */
  videoAlone: boolean;
}

export type CaptionCounting = 'characters' | 'x-weighted' | 'threads-utf8-emoji' | 'utf16' | 'bytes' | 'graphemes' | 'mastodon';

export interface PlatformInfo {
  types: readonly ContentType[];
  defaultType: ContentType;
  caption: {
    max: number;
    counting: CaptionCounting;
    maxHashtags?: number;
    maxMentions?: number;
    maxLinks?: number;
    /** Characters each link counts, whatever its length (mastodon: the server's characters_reserved_per_url). */
    urlLength?: number;
  };
  media: Partial<Record<ContentType, MediaRule>>;
  /** The platform pulls media from a public URL (so a daemon without a public base URL cannot serve it). */
  pullsMedia: boolean;
}

const rule = (min: number, max: number, kinds: readonly MediaKind[], videoAlone = true): MediaRule => ({ min, max, kinds, videoAlone });
const ANY: readonly MediaKind[] = ['image', 'video'];
const VIDEO: readonly MediaKind[] = ['video'];

/** One table: types, defaults, caption limits and media rules, from docs/reference/platforms.md §7. */
export const PLATFORM_INFO: Readonly<Record<Platform, PlatformInfo>> = Object.freeze({
  instagram: {
    types: ['feed', 'story', 'reels'],
    defaultType: 'feed',
    caption: { max: 2200, counting: 'characters', maxHashtags: 5, maxMentions: 20 },
    media: { feed: rule(1, 10, ANY, false), story: rule(1, 10, ANY, false), reels: rule(1, 1, VIDEO) },
    pullsMedia: true,
  },
  facebook: {
    types: ['feed', 'story', 'reels'],
    defaultType: 'feed',
    caption: { max: 63206, counting: 'characters' },
    media: { feed: rule(0, 10, ANY), story: rule(1, 10, ANY, false), reels: rule(1, 1, VIDEO) },
    pullsMedia: false,
  },
  twitter: {
    types: ['tweet'],
    defaultType: 'tweet',
    caption: { max: 280, counting: 'x-weighted' },
    media: { tweet: rule(0, 4, ANY) },
    pullsMedia: false,
  },
  threads: {
    types: ['post'],
    defaultType: 'post',
    caption: { max: 500, counting: 'threads-utf8-emoji', maxLinks: 5 },
    media: { post: rule(0, 20, ANY, false) },
    pullsMedia: true,
  },
  tiktok: {
    // photo: TikTok's photo mode, 1-35 JPEG/WebP images pulled from public URLs (docs/reference/platforms.md §12.5.3).
    types: ['video', 'photo'],
    defaultType: 'video',
    caption: { max: 2200, counting: 'utf16' },
    media: { video: rule(1, 1, VIDEO), photo: rule(1, 35, ['image']) },
    pullsMedia: false,
  },
  youtube: {
    types: ['video', 'shorts'],
    defaultType: 'video',
    caption: { max: 5000, counting: 'bytes' },
    media: { video: rule(1, 1, VIDEO), shorts: rule(1, 1, VIDEO) },
    pullsMedia: false,
  },
  bluesky: {
    // app.bsky.feed.post: 300 graphemes (and 3,000 UTF-8 bytes); 4 images or one video (docs/reference/platforms.md, Bluesky).
    types: ['post'],
    defaultType: 'post',
    caption: { max: 300, counting: 'graphemes' },
    media: { post: rule(0, 4, ANY) },
    pullsMedia: false,
  },
  mastodon: {
    // A default Mastodon server's limits (docs/reference/platforms.md, Mastodon): each server
    // states its own in /api/v2/instance, kept with the connection and used in place of these.
    types: ['post'],
    defaultType: 'post',
    caption: { max: 500, counting: 'mastodon', urlLength: 23 },
    media: { post: rule(0, 4, ANY) },
    pullsMedia: false,
  },
  linkedin: {
    // post: text, 1-20 images (a multi-image post from 2) or one video; document: one PDF with a title (docs/reference/platforms.md §15).
    types: ['post', 'document'],
    defaultType: 'post',
    caption: { max: 3000, counting: 'utf16' },
    media: { post: rule(0, 20, ANY), document: rule(1, 1, ['document']) },
    pullsMedia: false,
  },
  pinterest: {
    // pin: 1 image, or 2-5 images as a carousel; video_pin: one video with a cover image. The caption is the pin's description (500; docs/reference/platforms.md §16).
    types: ['pin', 'video_pin'],
    defaultType: 'pin',
    caption: { max: 500, counting: 'characters' },
    media: { pin: rule(1, 5, ['image']), video_pin: rule(1, 1, VIDEO) },
    pullsMedia: false,
  },
});

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

export function isContentType(value: unknown): value is ContentType {
  return typeof value === 'string' && (CONTENT_TYPES as readonly string[]).includes(value);
}

export function allowsType(platform: Platform, type: string): type is ContentType {
  return (PLATFORM_INFO[platform].types as readonly string[]).includes(type);
}
