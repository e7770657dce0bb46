import { PLATFORM_INFO } from '@socialpub/core';
import { createLinkedinComments } from './comments';
import type { PlatformModule } from '../platform-module';
import { linkedinSettings } from './settings';
import { createLinkedinAdapter } from './adapter';
import { linkedinVersions } from './api-version';
import { connectLinkedin, type LinkedinConnectOptions } from './connect';
import { linkedinTokenRefresher } from './refresh-token';
import { createLinkedinRemover } from './remove';
import { createLinkedinAnalytics } from './analytics';
import { linkedinSandbox } from './sim/sandbox';

/** LinkedIn: the versioned REST Posts API for a member or an organization, OAuth 2.0 3-legged. */
export const linkedin: PlatformModule = {
  platform: 'linkedin',
  limits: PLATFORM_INFO.linkedin,
  createAdapter: (config) => createLinkedinAdapter({ versions: linkedinVersions(config) }),
  simulator: linkedinSandbox,
  // The user's client id/secret may come as --app-id/--app-secret too; --organization picks the author.
  connect: (o, io, deps) =>
    connectLinkedin(
      {
        ...(o as unknown as LinkedinConnectOptions),
        clientId: (o.clientId as string | undefined) ?? o.appId,
        clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret,
        organizationId: (o.organizationId as string | undefined) ?? o.pageId,
      },
      io,
      { ...deps, versions: linkedinVersions(deps.platforms ?? {}) },
    ),
  // Only where LinkedIn granted a refresh token (approved apps); the others expire after 60 days and ask to reconnect.
  refresher: linkedinTokenRefresher,
  settings: linkedinSettings,
  comments: { supported: true, create: (config) => createLinkedinComments({ versions: linkedinVersions(config) }) },
  deletion: { supported: true, createRemover: (config) => createLinkedinRemover({ versions: linkedinVersions(config) }) },
  analytics: (config) => createLinkedinAnalytics({ versions: linkedinVersions(config) }),
  apiVersion: (config, now) => linkedinVersions(config).info(now),
};
