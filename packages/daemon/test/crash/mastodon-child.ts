/**
 * The daemon process of the Mastodon crash test: the real scheduler, publisher and
 * Mastodon adapter over the SQLite file argv[2], posting to the Mastodon simulator the test
 * process serves at argv[3] (so what was posted survives this process being killed). Media
 * URLs resolve to the image file argv[4]. Prints "ready" once started; exits on SIGTERM.
 */
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { createMastodonAdapter } from '../../src/platforms/mastodon/adapter';
import { sandboxCredentials } from '../support/test-adapter';
import { childArgs, credentialsOnly, mediaFiles, runPublishingChild, simulatorTimings } from './publishing-child';

const [dbPath, simUrl, imagePath] = childArgs('mastodon-child.ts', ['db', 'simulator url', 'image']) as [string, string, string];

await runPublishingChild(dbPath, {
  adapters: new Map<Platform, PlatformAdapter>([['mastodon', createMastodonAdapter({ requestTimeoutMs: 5_000, pollMs: 200 })]]),
  connections: credentialsOnly((userId, platform) => ({
    ...sandboxCredentials(userId, platform, 'mastodon crash test'),
    secrets: { access_token: 'sandbox-mastodon-crash' },
    meta: { server: 'https://mastodon.social' },
  })),
  media: mediaFiles(imagePath),
  ...simulatorTimings(simUrl),
});
