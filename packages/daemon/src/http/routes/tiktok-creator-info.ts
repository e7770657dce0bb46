import type { Routes, TiktokCreatorInfoResponse } from '@socialpub/core';
import type { ConnectionCallDeps } from '../../platforms/connection-call';
import { connectionCall } from '../../platforms/connection-call';
import { AuthExpiredError, PublishError, RateLimitedError } from '../../platforms/errors';
import { creatorInfoView } from '../../platforms/tiktok/creator-info';
import { ServiceError } from '../../util/service-error';
import type { RouteDeps } from '../deps';
import type { RouteHandlers } from '../route-table/mount-route';

/**
 * GET /platforms/tiktok/creator-info (extension): the caller's TikTok creator info, the
 * same query the publisher makes before every post, so a client (the CLI's publish wizard)
 * can offer exactly the privacy levels TikTok allows this creator now; `label` picks one of
 * several TikTok accounts (the default one without).
 */
export function tiktokCreatorInfoHandlers(deps: RouteDeps & { calls: ConnectionCallDeps }): RouteHandlers<Routes, 'platforms.tiktokCreatorInfo'> {
  return { 'platforms.tiktokCreatorInfo': async ({ query }, c) => {
    const user = c.get('user');
    // ?label= names one of several TikTok accounts; without, the default one.
    const label = query.label ?? null;
    const credentials = deps.store.credentials.credentialsFor(user.id, 'tiktok', null, label);
    if (!credentials && label !== null) {
      const message = `you have no tiktok account labelled ${label} (connect one with: socialpub connect tiktok --label ${label})`;
      throw new ServiceError('platform_not_connected', message, [{ path: 'label', message, platform: 'tiktok' }]);
    }
    if (!credentials) throw new ServiceError('platform_not_connected', 'tiktok is not connected: run `socialpub connect tiktok` first', [{ path: 'platform', message: 'not connected', platform: 'tiktok' }]);
    try {
      const ctx = connectionCall(deps.calls, 'tiktok', credentials, AbortSignal.timeout(60_000), { op: 'creator_info', request: c.get('requestId') });
      const body: TiktokCreatorInfoResponse = { success: true, creator_info: await creatorInfoView(ctx) };
      return body;
    } catch (err) {
      if (err instanceof AuthExpiredError) throw new ServiceError('forbidden', `TikTok refused the connection's token (${err.message}); reconnect with \`socialpub connect tiktok\``);
      if (err instanceof RateLimitedError) throw new ServiceError('unavailable', `TikTok's rate limit: ${err.message}`);
      if (err instanceof PublishError) throw new ServiceError('unavailable', `TikTok did not answer creator info: ${err.message}`);
      throw err;
    }
  } };
}
