import type { Got } from 'got';
import type { CallContext } from '../adapter';
import type { DeleteAnswer, PostRemover } from '../remove-post';
import type { LinkedinVersions } from './api-version';
import { LinkedinApiError } from './linkedin-client';
import { encodeUrn, linkedinSession } from './linkedin-session';

/** The LinkedIn error behind a mapped publisher error, if any. */
function apiCause(err: unknown): LinkedinApiError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    if (e instanceof LinkedinApiError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * LinkedIn take-downs: `DELETE /rest/posts/{encoded urn}` (with `X-RestLi-Method: DELETE`,
 * as LinkedIn's examples send it) answers 204; a post already deleted is a 404. Existence
 * after an unknown outcome: `GET /rest/posts/{urn}` (404 when gone).
 */
export function createLinkedinRemover(deps: { versions: LinkedinVersions; http?: Got; requestTimeoutMs?: number }): PostRemover {
  return {
    refusal: () => null,
    remoteIds: (target) => [target.postId],

    async deletePost(ctx: CallContext, id: string): Promise<DeleteAnswer> {
      const s = await linkedinSession(ctx, deps);
      try {
        await s.call('post deletion', true, (c) => c.request(`/rest/posts/${encodeUrn(id)}`, { method: 'DELETE', headers: { 'x-restli-method': 'DELETE' } }));
        return 'deleted';
      } catch (err) {
        if (apiCause(err)?.status === 404) return 'already_gone';
        throw err;
      }
    },

    async postExists(ctx: CallContext, id: string): Promise<boolean> {
      const s = await linkedinSession(ctx, deps);
      try {
        await s.call('post lookup', false, (c) => c.request(`/rest/posts/${encodeUrn(id)}`, { method: 'GET' }));
        return true;
      } catch (err) {
        if (apiCause(err)?.status === 404) return false;
        throw err;
      }
    },
  };
}
