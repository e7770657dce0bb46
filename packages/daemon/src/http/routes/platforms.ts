import { PLATFORMS, PLATFORM_INFO, platformDescription, formatInstant, platformOptionsJsonSchema, type PlatformsResponse, type Routes, type ServerLimits } from '@socialpub/core';
import type { RouteDeps } from '../deps';
import { pauseInfo } from '../../store/platform-pauses';
import { platformModule } from '../../platforms/registry';
import type { RouteHandlers } from '../route-table/mount-route';

/** The inbox's reach on a network (its module's `comments`; absent: an API socialpub does not call yet). */
function commentsOf(platform: Parameters<typeof platformModule>[0]): { supported: boolean; reason: string | null; hide_on_network: boolean } {
  const c = platformModule(platform)?.comments;
  if (!c) return { supported: false, reason: `socialpub does not read ${platformDescription(platform)?.name ?? platform} comments yet`, hide_on_network: false };
  // The client hides on the network where it has `hide` (a client is a set of closures: made here to ask).
  return c.supported ? { supported: true, reason: null, hide_on_network: typeof c.create({}).hide === 'function' } : { supported: false, reason: c.reason, hide_on_network: false };
}

const apiVersionOf = (platform: Parameters<typeof platformModule>[0]) => platformModule(platform)?.apiVersion;

/** GET /platforms: the platform table, and the caller's connection to each (and the API version of a platform versioned by date). */
export function platformsHandlers(deps: RouteDeps): RouteHandlers<Routes, 'platforms.list'> {
  return { 'platforms.list': (_input, c) => {
    const user = c.get('user');
    // Each platform's default account (GET /connections lists every account).
    const connections = new Map(deps.store.connections.listForUser(user.id).filter((x) => x.isDefault).map((x) => [x.platform, x]));
    const now = deps.clock.now();
    const body: PlatformsResponse = {
      success: true,
      platforms: PLATFORMS.map((platform) => {
        const conn = connections.get(platform);
        // A platform whose limits differ per account (a Mastodon server's) shows the connection's.
        const infoFor = deps.adapters.get(platform)?.infoFor;
        const info = conn && infoFor ? infoFor(conn.meta) : PLATFORM_INFO[platform];
        return {
          platform,
          types: [...info.types],
          default_type: info.defaultType,
          caption: {
            max: info.caption.max,
            counting: info.caption.counting,
            max_hashtags: info.caption.maxHashtags ?? null,
            max_mentions: info.caption.maxMentions ?? null,
            max_links: info.caption.maxLinks ?? null,
            ...(info.caption.urlLength !== undefined ? { url_length: info.caption.urlLength } : {}),
          },
          media: Object.fromEntries(
            Object.entries(info.media).map(([type, r]) => [type, { min: r.min, max: r.max, kinds: [...r.kinds], video_alone: r.videoAlone }]),
          ),
          pulls_media: info.pullsMedia,
          options: platformOptionsJsonSchema(platform),
          connection: conn
            ? {
                mode: conn.mode,
                status: conn.status,
                account: conn.accountName ?? conn.accountId,
                page: conn.pageName ?? conn.pageId,
                token_expires_at: conn.tokenExpiresAt === null ? null : formatInstant(conn.tokenExpiresAt),
                paused: pauseInfo(deps.store.platformPauses.forConnection(user.id, platform, now, conn.id)),
                ...platformModule(platform)?.connectionFields?.(conn.meta),
                ...(typeof conn.meta.server === 'string' ? { server: conn.meta.server, server_limits: (conn.meta.limits as ServerLimits | undefined) ?? null } : {}),
              }
            : null,
          ...(apiVersionOf(platform) ? { api_version: apiVersionOf(platform)!(deps.config.platforms, now) } : {}),
          comments: commentsOf(platform),
        };
      }),
    };
    return body;
  } };
}
