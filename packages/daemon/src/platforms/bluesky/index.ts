import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule, Refresher } from '../platform-module';
import { refreshShared } from '../shared/ensure-access-token';
import { TokenRefreshError } from '../shared/token-refresh-error';
import { createBlueskyAdapter } from './adapter';
import { connectBluesky, type BlueskyConnectOptions } from './connect';
import { defaultPdsGuard } from './pds-access';
import { createBlueskyRemover } from './remove';
import { blueskySessionRefresher } from './session';
import { blueskySandbox } from './sim/sandbox';

const sessionRefresher = blueskySessionRefresher(defaultPdsGuard);

/**
 * Keeps a live Bluesky session's refresh chain alive: refreshSession once the access token
 * is a day old (the refresh JWT lives 90 days and rotates), a new session from the app
 * password when the chain broke.
 */
const blueskyRefresher: Refresher = {
  platform: 'bluesky',
  applies: (c) => Boolean(c.secrets.refresh_token || c.secrets.app_password),
  minAgeMs: 24 * 3_600_000,
  refresh: (c, d) => refreshShared(c, sessionRefresher, { baseUrl: d.baseUrl, signal: d.signal, clock: d.clock }),
  isTransient: (err) => !(err instanceof TokenRefreshError && err.permanent),
};

/** Bluesky (AT Protocol): app.bsky.feed.post records on the account's own PDS, a handle and an app password. */
export const bluesky: PlatformModule = {
  platform: 'bluesky',
  limits: PLATFORM_INFO.bluesky,
  createAdapter: () => createBlueskyAdapter(),
  simulator: blueskySandbox,
  connect: (o, io, deps) => connectBluesky(o as unknown as BlueskyConnectOptions, io, deps),
  refresher: blueskyRefresher,
  deletion: { supported: true, createRemover: () => createBlueskyRemover() },
};
