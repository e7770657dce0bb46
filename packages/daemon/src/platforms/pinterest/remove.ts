import type { Got } from 'got';
import type { CallContext } from '../adapter';
import type { DeleteAnswer, PostRemover } from '../remove-post';
import { PinterestApiError } from './pinterest-client';
import { pinterestSession } from './pinterest-session';

/** The Pinterest error behind a mapped publisher error, if any. */
function apiCause(err: unknown): PinterestApiError | null {
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    if (e instanceof PinterestApiError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

/**
 * Pinterest take-downs: `DELETE /v5/pins/{pin_id}` answers 204; a pin already deleted is a
 * 404. Existence after an unknown outcome: `GET /v5/pins/{pin_id}` (404 when gone).
 */
export function createPinterestRemover(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostRemover {
  return {
    refusal: () => null,
    remoteIds: (target) => [target.postId],

    async deletePost(ctx: CallContext, id: string): Promise<DeleteAnswer> {
      const s = await pinterestSession(ctx, deps);
      try {
        await s.call('pin deletion', true, (c) => c.request(`/v5/pins/${encodeURIComponent(id)}`, { method: 'DELETE' }));
        return 'deleted';
      } catch (err) {
        if (apiCause(err)?.status === 404) return 'already_gone';
        throw err;
      }
    },

    async postExists(ctx: CallContext, id: string): Promise<boolean> {
      const s = await pinterestSession(ctx, deps);
      try {
        await s.call('pin lookup', false, (c) => c.request(`/v5/pins/${encodeURIComponent(id)}`, { method: 'GET' }));
        return true;
      } catch (err) {
        if (apiCause(err)?.status === 404) return false;
        throw err;
      }
    },
  };
}
