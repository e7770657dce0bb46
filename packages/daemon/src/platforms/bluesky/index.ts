import { PLATFORM_INFO } from '@socialpub/core';
import type { PlatformModule } from '../platform-module';
import { createBlueskyAdapter } from './adapter';
import { blueskyTokenRefresher } from './session';
import { connectBluesky, type BlueskyConnectOptions } from './connect';
import { createBlueskyRemover } from './remove';
import { blueskySandbox } from './sim/sandbox';

/** Bluesky (AT Protocol): app.bsky.feed.post records on the account's own PDS, a handle and an app password. */
export const bluesky: PlatformModule = {
  platform: 'bluesky',
  limits: PLATFORM_INFO.bluesky,
  createAdapter: () => createBlueskyAdapter(),
  simulator: blueskySandbox,
  connect: (o, io, deps) => connectBluesky(o as unknown as BlueskyConnectOptions, io, deps),
  refresher: blueskyTokenRefresher(),
  deletion: { supported: true, createRemover: () => createBlueskyRemover() },
};
