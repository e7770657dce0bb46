/**
 * The daemon process of the LinkedIn crash test: the real scheduler, publisher and
 * LinkedIn adapter over the SQLite file argv[2], posting to the LinkedIn simulator the
 * test process serves at argv[3] (so what LinkedIn did survives this process being
 * killed). A media URL ending in .mp4 resolves to the video file argv[5], any other to
 * the image file argv[4]. Prints "ready" once started; exits cleanly on SIGTERM.
 */
import { statSync } from 'node:fs';
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { LinkedinVersions } from '../../src/platforms/linkedin/api-version';
import { createLinkedinAdapter } from '../../src/platforms/linkedin/adapter';
import { createPublishing } from '../../src/publisher/create-publishing';
import { createCommits } from '../../src/store/commits';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { sandboxCredentials } from '../support/test-adapter';

const [dbPath, simUrl, imagePath, videoPath] = process.argv.slice(2);
if (!dbPath || !simUrl || !imagePath || !videoPath) throw new Error('usage: linkedin-child.ts <db> <simulator url> <image> <video>');

const db = openDatabase(dbPath);
const adapters = new Map<Platform, PlatformAdapter>([['linkedin', createLinkedinAdapter({ versions: new LinkedinVersions(null), requestTimeoutMs: 5_000, pollMs: 200, reconcileSettleMs: 500 })]]);
const credentials = (userId: string, platform: Platform) => ({ ...sandboxCredentials(userId, platform, 'linkedin crash test'), secrets: { access_token: 'sandbox-li-crash' } });

const publishing = createPublishing({
  db,
  // As the daemon: checkpoints group-committed, so a kill can land between a commit and its fsync.
  commits: createCommits(db),
  clock: systemClock,
  adapters,
  connections: { credentialsFor: credentials, saveTokens: () => {}, markExpired: () => {} },
  media: {
    resolve: async (_user, urls) =>
      urls.map((url) => {
        const video = url.endsWith('.mp4');
        const path = video ? videoPath : imagePath;
        return { url, kind: video ? ('video' as const) : ('image' as const), mimeType: video ? 'video/mp4' : 'image/jpeg', size: statSync(path).size, publicUrl: null, path, sha256: null };
      }),
  },
  scheduler: { sweepMs: 200 },
  publisher: { concurrency: 2, connectionConcurrency: 2, leaseMs: 1_500, sweepMs: 200, sandboxBaseUrl: (_platform, host) => `${simUrl}/${host}` },
});

await publishing.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void publishing.stop(2_000).then(() => {
    db.close();
    process.exit(0);
  });
});
