import type { ServerLimits } from '@socialpub/core';

/** The key apps and the instance are answered with (the simulator sends no pushes). */
export const SIM_VAPID_KEY = 'BCk-QqERU0q-CfYZjcuB6lnyyOYfJ2AifKqfeGIm7Z-HiTU5T9eTG5GxVA0_OH5mMlI4UkkDTpaZwozy0TzdZ2M=';

/** The simulated server's `GET /api/v2/instance`: the Instance entity, its configuration from the server's limits. */
export function instanceEntity(host: string, limits: ServerLimits): Record<string, unknown> {
  const publicOrigin = `https://${host}`;
  return {
    domain: host,
    title: 'Mastodon (socialpub sandbox)',
    version: '4.5.0',
    source_url: 'https://github.com/mastodon/mastodon',
    description: 'The socialpub simulator of a Mastodon server.',
    usage: { users: { active_month: 1 } },
    thumbnail: { url: `${publicOrigin}/packs/media/images/preview.png` },
    icon: [],
    languages: ['en'],
    configuration: {
      urls: { streaming: `wss://${host}`, status: null },
      vapid: { public_key: SIM_VAPID_KEY },
      accounts: { max_featured_tags: 10, max_pinned_statuses: 5 },
      statuses: { max_characters: limits.characters, max_media_attachments: limits.max_media_attachments, characters_reserved_per_url: limits.characters_reserved_per_url },
      media_attachments: {
        supported_mime_types: limits.supported_mime_types,
        description_limit: limits.description_limit,
        image_size_limit: limits.image_size_limit,
        image_matrix_limit: 33_177_600,
        video_size_limit: limits.video_size_limit,
        video_frame_rate_limit: 120,
        video_matrix_limit: 8_294_400,
      },
      polls: {
        max_options: limits.poll_max_options,
        max_characters_per_option: limits.poll_max_characters_per_option,
        min_expiration: limits.poll_min_expiration,
        max_expiration: limits.poll_max_expiration,
      },
      translation: { enabled: false },
    },
    registrations: { enabled: false, approval_required: false, message: null, url: null },
    api_versions: { mastodon: 6 },
    contact: { email: 'sandbox@socialpub.invalid', account: null },
    rules: [],
  };
}
