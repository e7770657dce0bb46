/**
 * The daemon process of the Bluesky SIGKILL test: the real scheduler, publisher and Bluesky
 * adapter over the SQLite file argv[2], posting to the Bluesky simulator the test process
 * serves at argv[3] (so what was posted survives this process being killed). Prints
 * "ready" once started; exits cleanly on SIGTERM.
 */
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter';
import { sandboxCredentials } from '../support/test-adapter';
import { childArgs, credentialsOnly, noMedia, runPublishingChild, simulatorTimings } from './publishing-child';

const [dbPath, simUrl] = childArgs('bluesky-child.ts', ['db', 'simulator url']) as [string, string];

await runPublishingChild(dbPath, {
  adapters: new Map<Platform, PlatformAdapter>([['bluesky', createBlueskyAdapter({ requestTimeoutMs: 5_000, linkCards: null })]]),
  connections: credentialsOnly((userId, platform) => ({
    ...sandboxCredentials(userId, platform, 'bluesky crash test'),
    accountId: null,
    secrets: { access_token: 'sandbox_at_sigkill.0123456789abcdef', refresh_token: 'sandbox_rt_sigkill.0123456789abcdef' },
    meta: { sandbox: true },
  })),
  media: noMedia,
  ...simulatorTimings(simUrl),
});
