import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { createMetaRemover } from '../meta/remove';
import type { PostRemover } from '../remove-post';

/**
 * Facebook Page take-downs (docs/reference/platforms.md §12.2.4): `DELETE /{page_post_id}`
 * with the Page token. Page stories have no documented deletion: refused per target.
 */
export function createFacebookRemover(options: MetaAdapterOptions = {}): PostRemover {
  return createMetaRemover(
    {
      label: 'Facebook',
      host: 'graph.facebook.com',
      version: options.graphVersion ?? DEFAULT_GRAPH_VERSION,
      token: (ctx) => ctx.credentials.secrets.page_token ?? requireToken(ctx, 'Facebook'),
      // Page tokens have no refresh: a dead one needs a new connection.
      refresher: null,
      refusal: (_credentials, target) =>
        target.type === 'story' ? 'Facebook documents no way to delete a Page story through the API; delete it in the Facebook app' : null,
    },
    options,
  );
}
