import type { Got } from 'got';
import type { CallContext } from '../adapter';
import { OutcomeUnknownError } from '../errors';
import { callRenewingToken } from '../shared/call-renewing-token';
import { ensureAccessToken } from '../shared/ensure-access-token';
import type { PostRemover } from '../remove-post';
import { GoogleApiError, GoogleClient, GoogleTransportError } from './google-client';
import { mapGoogleError } from './map-google-error';
import { youtubeTokenRefresher } from './refresh-token';

const HOST = 'www.googleapis.com';

/**
 * YouTube take-downs (docs/reference/platforms.md §12.6.7): `DELETE /youtube/v3/videos?id=`
 * -> 204; 404 `videoNotFound` is already gone; 50 quota units; needs the `youtube` or
 * `youtube.force-ssl` scope (an upload-only token gets 403 insufficientPermissions, shown on
 * the target). Existence after an unknown outcome: videos.list by id (1 unit).
 */
export function createYoutubeRemover(deps: { http?: Got; requestTimeoutMs?: number } = {}): PostRemover {
  async function call<T>(ctx: CallContext, step: string, deletes: boolean, run: (client: GoogleClient) => Promise<T>): Promise<T> {
    const token = await ensureAccessToken(ctx, youtubeTokenRefresher);
    const client = new GoogleClient({ baseUrl: ctx.baseUrl(HOST), token, signal: ctx.signal, timeoutMs: deps.requestTimeoutMs, ...(deps.http ? { http: deps.http } : {}) });
    return callRenewingToken(ctx, () => run(client), {
      refused: (err) => err instanceof GoogleApiError && err.status === 401,
      renew: async () => client.setToken(await ensureAccessToken(ctx, youtubeTokenRefresher, { force: true })),
      mapError: (err) =>
        // A DELETE sent without an answer may have taken effect: outcome unknown, not a plain retry.
        deletes && err instanceof GoogleTransportError && err.sent
          ? new OutcomeUnknownError(`YouTube did not answer ${step}; the video may be deleted: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err })
          : mapGoogleError(err, { now: ctx.clock.now(), step }),
    });
  }

  return {
    refusal: () => null,
    remoteIds: (target) => [target.postId],
    deletePost: (ctx, id) => call(ctx, 'video deletion', true, (client) => client.deleteVideo(id)),
    postExists: (ctx, id) => call(ctx, 'video lookup', false, (client) => client.videoExists(id)),
  };
}
