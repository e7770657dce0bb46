import { PLATFORM_INFO } from '@socialpub/core';
import { connectMeta } from '../meta/connect';
import { metaSandbox } from '../meta/sim/sandbox';
import { createFacebookComments } from './comments';
import type { PlatformModule } from '../platform-module';
import { createFacebookAnalytics } from './analytics';
import { metaSettings } from '../meta/settings';
import { createFacebookAdapter } from './adapter';
import { createFacebookRemover } from './remove';

/** Facebook pages: Graph API posts, photos and videos with a page token. */
export const facebook: PlatformModule = {
  platform: 'facebook',
  limits: PLATFORM_INFO.facebook,
  createAdapter: (config) => createFacebookAdapter({ graphVersion: config.graphVersion }),
  simulator: metaSandbox,
  connect: (options, io, deps) => connectMeta('facebook', options, io, deps),
  // Page tokens from a long-lived user token do not expire.
  refresher: null,
  settings: metaSettings,
  comments: { supported: true, create: (config) => createFacebookComments({ graphVersion: config.graphVersion }) },
  deletion: { supported: true, createRemover: (config) => createFacebookRemover({ graphVersion: config.graphVersion }) },
  analytics: (config) => createFacebookAnalytics({ graphVersion: config.graphVersion }),
  sandboxAccount: (suffix) => ({ pageId: `sandbox_page_${suffix}`, pageName: 'Sandbox page' }),
};
