import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { callRenewingToken } from '../shared/call-renewing-token';
import { postWithReplies, type DeleteAnswer, type PostRemover } from '../remove-post';
import { mapXError } from './map-x-error';
import { xAuthFor } from './x-auth';
import { XApiError, XClient } from './x-client';

const HOST = 'api.x.com';
const NOT_FOUND = /resource-not-found/;
const notFound = (err: unknown) => err instanceof XApiError && err.status === 404 && NOT_FOUND.test(`${err.problemType ?? ''} ${JSON.stringify(err.body ?? '')}`);

/**
 * X take-downs (docs/reference/platforms.md §12.3.3): `DELETE /2/tweets/{id}` answers
 * `{"data":{"deleted":true}}`; only the author's own posts. A 404 `resource-not-found`
 * means the post is already gone. Existence after an unknown outcome: `GET /2/tweets/{id}`
 * (a missing post is a 200 with only `errors`, §12.3.4).
 */
export function createTwitterRemover(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostRemover {
  /** One call; a 401 on an OAuth 2.0 token refreshes it once and repeats (a 401 changed nothing). */
  async function call<T>(ctx: CallContext, step: string, deletes: boolean, run: (client: XClient) => Promise<T>): Promise<T> {
    const client = new XClient({ baseUrl: ctx.baseUrl(HOST), auth: await xAuthFor(ctx), signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
    return callRenewingToken(ctx, () => run(client), {
      refused: (err) => err instanceof XApiError && err.status === 401 && !ctx.credentials.secrets.oauth_token,
      renew: async () => client.setAuth(await xAuthFor(ctx, true)),
      // A DELETE that got no answer may have taken effect: outcome unknown, like a post.
      mapError: (err) => mapXError(err, { now: ctx.clock.now(), creates: deletes, step }),
    });
  }

  return {
    refusal: () => null,
    remoteIds: postWithReplies,

    deletePost: (ctx, id) =>
      call(ctx, 'post deletion', true, async (client): Promise<DeleteAnswer> => {
        try {
          const res = await client.request<{ data?: { deleted?: boolean } }>(`/2/tweets/${encodeURIComponent(id)}`, { method: 'DELETE' });
          if (res.body.data?.deleted !== true) throw new XApiError(res.status, `X did not delete post ${id} (deleted: ${String(res.body.data?.deleted)})`, res.body, res.headers, null);
          return 'deleted';
        } catch (err) {
          if (notFound(err)) return 'already_gone';
          throw err;
        }
      }),

    postExists: (ctx, id) =>
      call(ctx, 'post lookup', false, async (client) => {
        const res = await client.request<{ data?: { id?: string }; errors?: Array<{ type?: string }> }>(`/2/tweets/${encodeURIComponent(id)}`, { method: 'GET' });
        if (res.body.data?.id) return true;
        if (res.body.errors?.some((e) => NOT_FOUND.test(e.type ?? ''))) return false;
        throw new XApiError(res.status, `X answered neither the post nor its absence for ${id}`, res.body, res.headers, null);
      }),
  };
}
