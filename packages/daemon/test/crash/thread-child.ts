/**
 * The daemon process of the thread crash test: the real scheduler, publisher and X
 * adapter over the SQLite file argv[2], posting to the X simulator the test process serves
 * at argv[3] (so what was posted survives this process being killed). Media URLs resolve
 * to the image file argv[4]. Prints "ready" once started; exits cleanly on SIGTERM.
 */
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { sandboxCredentials } from '../support/test-adapter';
import { childArgs, credentialsOnly, mediaFiles, runPublishingChild, simulatorTimings } from './publishing-child';

const [dbPath, simUrl, imagePath] = childArgs('thread-child.ts', ['db', 'simulator url', 'image']) as [string, string, string];

await runPublishingChild(dbPath, {
  adapters: new Map<Platform, PlatformAdapter>([['twitter', createTwitterAdapter({ requestTimeoutMs: 5_000 })]]),
  connections: credentialsOnly((userId, platform) => ({
    ...sandboxCredentials(userId, platform, 'thread crash test'),
    secrets: { access_token: 'sandbox-x-thread' },
    meta: { username: 'sandbox_x' },
  })),
  media: mediaFiles(imagePath),
  ...simulatorTimings(simUrl),
});
