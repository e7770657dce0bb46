import type { CallContext } from '../adapter';
import { OutcomeUnknownError } from '../errors';
import { postWithReplies, type DeleteAnswer, type PostRemover } from '../remove-post';
import { MastodonApiError, MastodonTransportError } from './mastodon-client';
import { mapMastodonError } from './map-mastodon-error';
import { clientFor, type ClientDeps } from './server-of';

const gone = (err: unknown) => err instanceof MastodonApiError && err.status === 404;

/**
 * Mastodon take-downs: `DELETE /api/v1/statuses/:id` answers the deleted status (its source
 * text); only the author's own. A 404 means it is already gone (or never was the account's).
 * Existence after an unknown outcome: `GET /api/v1/statuses/:id`.
 */
export function createMastodonRemover(deps: ClientDeps = {}): PostRemover {
  async function call<T>(ctx: CallContext, step: string, deletes: boolean, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      // A DELETE that got no answer may have taken effect: the take-down looks it up before trying again.
      if (deletes && err instanceof MastodonTransportError && err.sent) {
        throw new OutcomeUnknownError(`the Mastodon server did not answer the ${step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
      }
      throw mapMastodonError(err, { now: ctx.clock.now(), step });
    }
  }

  return {
    refusal: () => null,
    remoteIds: postWithReplies,

    deletePost: (ctx, id) =>
      call(ctx, 'status deletion', true, async (): Promise<DeleteAnswer> => {
        try {
          await clientFor(ctx, deps).request(`/api/v1/statuses/${encodeURIComponent(id)}`, { method: 'DELETE' });
          return 'deleted';
        } catch (err) {
          if (gone(err)) return 'already_gone';
          throw err;
        }
      }),

    postExists: (ctx, id) =>
      call(ctx, 'status lookup', false, async () => {
        try {
          await clientFor(ctx, deps).request(`/api/v1/statuses/${encodeURIComponent(id)}`, { method: 'GET' });
          return true;
        } catch (err) {
          if (gone(err)) return false;
          throw err;
        }
      }),
  };
}
