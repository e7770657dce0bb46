import type { MetaAdapterOptions } from '../meta/meta-run';
import { requireToken } from '../meta/meta-run';
import { createMetaRemover } from '../meta/remove';
import { threadsTokenRefresher } from './refresh-token';
import { postWithReplies, type PostRemover } from '../remove-post';

/**
 * Threads take-downs (docs/reference/platforms.md §12.4.2): `DELETE /{threads-media-id}`
 * with `threads_delete`; at most 100 deletions per profile per 24 h (a refusal then is
 * reported on the target and the call may be repeated later).
 */
export function createThreadsRemover(options: MetaAdapterOptions = {}): PostRemover {
  return createMetaRemover(
    {
      label: 'Threads',
      host: 'graph.threads.net',
      version: options.threadsVersion ?? 'v1.0',
      tokenIn: 'param',
      token: (ctx) => requireToken(ctx, 'Threads'),
      refresher: threadsTokenRefresher,
      refusal: () => null,
      // Thread parts and the first comment are Threads posts of their own (replies): deleted first.
      remoteIds: postWithReplies,
    },
    options,
  );
}
