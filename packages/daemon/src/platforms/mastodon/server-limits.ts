import { PLATFORM_INFO, type PlatformInfo, type ServerLimits } from '@socialpub/core';

/**
 * mastodon.social's limits (Mastodon's own defaults; docs/reference/platforms.md, Mastodon):
 * what a connection made before its server was asked, and the simulator, use.
 */
export const DEFAULT_SERVER_LIMITS: ServerLimits = Object.freeze({
  characters: 500,
  characters_reserved_per_url: 23,
  max_media_attachments: 4,
  poll_max_options: 4,
  poll_max_characters_per_option: 50,
  poll_min_expiration: 300,
  poll_max_expiration: 2_629_746,
  image_size_limit: 16 * 1024 * 1024,
  video_size_limit: 99 * 1024 * 1024,
  description_limit: 1500,
  supported_mime_types: [
    'image/jpeg', 'image/png', 'image/gif', 'image/heic', 'image/heif', 'image/webp', 'image/avif',
    'video/webm', 'video/mp4', 'video/quicktime', 'video/ogg',
    'audio/wave', 'audio/wav', 'audio/x-wav', 'audio/x-pn-wave', 'audio/vnd.wave', 'audio/ogg', 'audio/vorbis', 'audio/mpeg', 'audio/mp3', 'audio/webm', 'audio/flac', 'audio/aac', 'audio/m4a', 'audio/x-m4a', 'audio/mp4', 'audio/3gpp', 'video/x-ms-asf',
  ],
}) as ServerLimits;

const int = (v: unknown, fallback: number): number => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback);

/**
 * The limits a server states in GET /api/v2/instance (`configuration.statuses`,
 * `.media_attachments`, `.polls`); a field the server leaves out keeps Mastodon's default
 * (forks and older versions omit some, e.g. description_limit before 4.4).
 */
export function limitsFromInstance(instance: unknown): ServerLimits {
  const conf = ((instance ?? {}) as { configuration?: Record<string, Record<string, unknown> | undefined> }).configuration ?? {};
  const s = conf.statuses ?? {};
  const m = conf.media_attachments ?? {};
  const p = conf.polls ?? {};
  const d = DEFAULT_SERVER_LIMITS;
  const types = Array.isArray(m.supported_mime_types) ? (m.supported_mime_types as unknown[]).filter((t): t is string => typeof t === 'string') : [];
  return {
    characters: int(s.max_characters, d.characters),
    characters_reserved_per_url: int(s.characters_reserved_per_url, d.characters_reserved_per_url),
    max_media_attachments: int(s.max_media_attachments, d.max_media_attachments),
    poll_max_options: int(p.max_options, d.poll_max_options),
    poll_max_characters_per_option: int(p.max_characters_per_option, d.poll_max_characters_per_option),
    poll_min_expiration: int(p.min_expiration, d.poll_min_expiration),
    poll_max_expiration: int(p.max_expiration, d.poll_max_expiration),
    image_size_limit: int(m.image_size_limit, d.image_size_limit),
    video_size_limit: int(m.video_size_limit, d.video_size_limit),
    description_limit: int(m.description_limit, d.description_limit),
    supported_mime_types: types.length > 0 ? types : [...d.supported_mime_types],
  };
}

/** The limits kept with a connection (its meta's `limits`), else Mastodon's defaults. */
export function limitsOf(meta: Record<string, unknown> | null | undefined): ServerLimits {
  const kept = meta?.limits;
  return kept && typeof kept === 'object' ? { ...DEFAULT_SERVER_LIMITS, ...(kept as Partial<ServerLimits>) } : DEFAULT_SERVER_LIMITS;
}

/** The core table's mastodon entry with a server's own character, link and attachment limits. */
export function mastodonInfo(limits: ServerLimits): PlatformInfo {
  const base = PLATFORM_INFO.mastodon;
  const post = base.media.post!;
  return {
    ...base,
    caption: { ...base.caption, max: limits.characters, urlLength: limits.characters_reserved_per_url },
    media: { post: { ...post, max: limits.max_media_attachments } },
  };
}
