/**
 * The daemon process of the LinkedIn crash test: the real scheduler, publisher and
 * LinkedIn adapter over the SQLite file argv[2], posting to the LinkedIn simulator the
 * test process serves at argv[3] (so what LinkedIn did survives this process being
 * killed). A media URL ending in .mp4 resolves to the video file argv[5], any other to
 * the image file argv[4]. Prints "ready" once started; exits cleanly on SIGTERM.
 */
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { LinkedinVersions } from '../../src/platforms/linkedin/api-version';
import { createLinkedinAdapter } from '../../src/platforms/linkedin/adapter';
import { sandboxCredentials } from '../support/test-adapter';
import { childArgs, credentialsOnly, mediaFiles, runPublishingChild, simulatorTimings } from './publishing-child';

const [dbPath, simUrl, imagePath, videoPath] = childArgs('linkedin-child.ts', ['db', 'simulator url', 'image', 'video']) as [string, string, string, string];

await runPublishingChild(dbPath, {
  adapters: new Map<Platform, PlatformAdapter>([['linkedin', createLinkedinAdapter({ versions: new LinkedinVersions(null), requestTimeoutMs: 5_000, pollMs: 200, reconcileSettleMs: 500 })]]),
  connections: credentialsOnly((userId, platform) => ({ ...sandboxCredentials(userId, platform, 'linkedin crash test'), secrets: { access_token: 'sandbox-li-crash' } })),
  media: mediaFiles(imagePath, videoPath),
  ...simulatorTimings(simUrl),
});
