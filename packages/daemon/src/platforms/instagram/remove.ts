import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { createMetaRemover } from '../meta/remove';
import type { PostRemover, PublishedTarget } from '../remove-post';

/** The media ids of a target's published units (one per story), from the container flow's checkpoint. */
function publishedMediaIds(target: PublishedTarget): string[] {
  const units = (target.checkpoint.units ?? {}) as Record<string, { mediaId?: string }>;
  const ids = Object.values(units).flatMap((u) => (u.mediaId ? [String(u.mediaId)] : []));
  // The post id last (it is the first unit's media id): the target is removed once it is gone.
  return [...new Set([...ids.filter((id) => id !== target.postId), target.postId])];
}

/**
 * Instagram take-downs (docs/reference/platforms.md §12.1.3, §12.8: deletion exists since
 * late 2025): `DELETE /{ig-media-id}` on graph.facebook.com with a Facebook Login token
 * (`instagram_manage_contents`); a carousel by its album id; each story of a story target.
 * Instagram Login tokens (graph.instagram.com) cannot delete: refused per target.
 */
export function createInstagramRemover(options: MetaAdapterOptions = {}): PostRemover {
  return createMetaRemover(
    {
      label: 'Instagram',
      host: 'graph.facebook.com',
      version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
      token: (ctx) => requireToken(ctx, 'Instagram'),
      // Facebook Login tokens cannot be refreshed: re-authenticate.
      refresher: null,
      refusal: (credentials) =>
        credentials.meta.login === 'facebook'
          ? null
          : 'Instagram deletes media only for accounts connected through Facebook Login (instagram_manage_contents); this connection uses Instagram Login. Reconnect with `socialpub connect instagram --login facebook` to take posts down, or delete it in the Instagram app',
      remoteIds: publishedMediaIds,
    },
    options,
  );
}
