import type { Got } from 'got';
import type { DeleteAnswer, PostRemover } from '../remove-post';
import type { AddressGuard } from '../../net/address-guard';
import { PermanentError } from '../errors';
import { madeRecords } from './checkpoint';
import { openSession, parsePostUri, POST_COLLECTION } from './bluesky-session';
import { defaultPdsGuard } from './pds-access';
import { blueskyTokenRefresher } from './session';

/**
 * Bluesky take-downs: `com.atproto.repo.deleteRecord` of the post and of every thread part
 * and comment the target made (the post last). deleteRecord answers the same whether or
 * not the record existed, so getRecord first tells `already_gone` apart.
 */
export function createBlueskyRemover(deps: { guard?: AddressGuard; http?: Got; requestTimeoutMs?: number } = {}): PostRemover {
  const guard = deps.guard ?? defaultPdsGuard;
  const refresher = blueskyTokenRefresher(guard);
  const keyOf = (uri: string) => {
    const p = parsePostUri(uri);
    if (!p || p.collection !== POST_COLLECTION) throw new PermanentError(`${uri} is not a Bluesky post URI`, { platformCode: 'InvalidRequest' });
    return p;
  };
  return {
    refusal: () => null,
    remoteIds: (target) => madeRecords(target.checkpoint, target.postId),

    async deletePost(ctx, uri): Promise<DeleteAnswer> {
      const { repo, rkey } = keyOf(uri);
      const s = await openSession(ctx, { guard, refresher, http: deps.http, timeoutMs: deps.requestTimeoutMs }, { did: repo });
      if (!(await s.getPost(rkey, 'post lookup'))) return 'already_gone';
      await s.call('post deletion', true, (c) => c.procedure('com.atproto.repo.deleteRecord', { json: { repo, collection: POST_COLLECTION, rkey } }));
      return 'deleted';
    },

    async postExists(ctx, uri) {
      const { repo, rkey } = keyOf(uri);
      const s = await openSession(ctx, { guard, refresher, http: deps.http, timeoutMs: deps.requestTimeoutMs }, { did: repo });
      return (await s.getPost(rkey, 'post lookup')) !== null;
    },
  };
}
