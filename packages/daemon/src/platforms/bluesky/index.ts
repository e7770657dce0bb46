import { PLATFORM_INFO } from '@socialpub/core';
import { AddressGuard } from '../../net/address-guard';
import type { PlatformModule } from '../platform-module';
import { createBlueskyAnalytics } from './analytics';
import { createBlueskyAdapter } from './adapter';
import { createBlueskyComments } from './comments';
import { blueskyTokenRefresher } from './session';
import { connectBluesky, type BlueskyConnectOptions } from './connect';
import { createBlueskyRemover } from './remove';
import { blueskySandbox } from './sim/sandbox';

/** Bluesky (AT Protocol): app.bsky.feed.post records on the account's own PDS, a handle and an app password. */
export const bluesky: PlatformModule = {
  platform: 'bluesky',
  limits: PLATFORM_INFO.bluesky,
  // Link cards fetch the caption's first link: private addresses only where media_allow_private lets media come from them.
  createAdapter: (config) => createBlueskyAdapter({ linkCardGuard: new AddressGuard({ allowPrivate: config.urlsAllowPrivate ?? false }) }),
  simulator: blueskySandbox,
  connect: (o, io, deps) => connectBluesky(o as unknown as BlueskyConnectOptions, io, deps),
  refresher: blueskyTokenRefresher(),
  deletion: { supported: true, createRemover: () => createBlueskyRemover() },
  comments: { supported: true, create: () => createBlueskyComments() },
  analytics: () => createBlueskyAnalytics(),
};
