import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createMastodonAnalytics } from './analytics';
import { createMastodonAdapter } from './adapter';
import { createMastodonComments } from './comments';
import { connectMastodon } from './connect';
import { createMastodonRemover } from './remove';
import { DEFAULT_SERVER_LIMITS } from './server-limits';
import { mastodonSandbox } from './sim/sandbox';
import { MASTODON_HOST } from './sim/simulator';

/** Mastodon: statuses on any server (its own limits), OAuth with PKCE per server, Idempotency-Key on every status. */
export const mastodon: PlatformModule = {
  platform: 'mastodon',
  limits: PLATFORM_INFO.mastodon,
  createAdapter: () => createMastodonAdapter(),
  simulator: mastodonSandbox,
  connect: (o, io, deps) =>
    connectMastodon(
      {
        userId: o.userId as string,
        ...(typeof o.server === 'string' ? { server: o.server } : {}),
        ...(typeof o.redirectUri === 'string' ? { redirectUri: o.redirectUri } : {}),
        ...(typeof o.timeoutMs === 'number' ? { timeoutMs: o.timeoutMs } : {}),
      },
      io,
      deps,
    ),
  // Mastodon's access tokens do not expire.
  refresher: null,
  deletion: { supported: true, createRemover: () => createMastodonRemover() },
  comments: { supported: true, create: () => createMastodonComments() },
  analytics: () => createMastodonAnalytics(),
  sandboxMeta: { server: `https://${MASTODON_HOST}`, username: 'sandbox', limits: DEFAULT_SERVER_LIMITS },
};
