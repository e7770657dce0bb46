import { PLATFORM_INFO } from '@socialpub/core';
import { connectMeta } from '../meta/connect';
import { metaSandbox } from '../meta/sim/sandbox';
import { createInstagramComments } from './comments';
import type { PlatformModule } from '../platform-module';
import { createInstagramAnalytics } from './analytics';
import { instagramSettings } from './settings';
import { createInstagramAdapter } from './adapter';
import { createInstagramRemover } from './remove';
import { instagramTokenRefresher } from './refresh-token';

/** Instagram: Graph API containers (pulled media), Instagram Login or via a Facebook page. */
export const instagram: PlatformModule = {
  platform: 'instagram',
  limits: PLATFORM_INFO.instagram,
  createAdapter: (config) => createInstagramAdapter({ graphVersion: config.graphVersion, maxHashtags: config.instagramMaxHashtags }),
  simulator: metaSandbox,
  connect: (options, io, deps) => connectMeta('instagram', options, io, deps),
  // Instagram Login tokens refresh; a token from Facebook Login lives with its page.
  refresher: instagramTokenRefresher,
  settings: instagramSettings,
  comments: { supported: true, create: (config) => createInstagramComments({ graphVersion: config.graphVersion }) },
  deletion: { supported: true, createRemover: (config) => createInstagramRemover({ graphVersion: config.graphVersion }) },
  analytics: (config) => createInstagramAnalytics({ graphVersion: config.graphVersion }),
};
