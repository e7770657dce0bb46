/**
 * The daemon process of the Mastodon crash test: the real scheduler, publisher and
 * Mastodon adapter over the SQLite file argv[2], posting to the Mastodon simulator the test
 * process serves at argv[3] (so what was posted survives this process being killed). Media
 * URLs resolve to the image file argv[4]. Prints "ready" once started; exits on SIGTERM.
 */
import { statSync } from 'node:fs';
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { createMastodonAdapter } from '../../src/platforms/mastodon/adapter';
import { createPublishing } from '../../src/publisher/create-publishing';
import { createCommits } from '../../src/store/commits';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { sandboxCredentials } from '../support/test-adapter';

const [dbPath, simUrl, imagePath] = process.argv.slice(2);
if (!dbPath || !simUrl || !imagePath) throw new Error('usage: mastodon-child.ts <db> <simulator url> <image>');

const db = openDatabase(dbPath);
const adapters = new Map<Platform, PlatformAdapter>([['mastodon', createMastodonAdapter({ requestTimeoutMs: 5_000, pollMs: 200 })]]);
const credentials = (userId: string, platform: Platform) => ({
  ...sandboxCredentials(userId, platform, 'mastodon crash test'),
  secrets: { access_token: 'sandbox-mastodon-crash' },
  meta: { server: 'https://mastodon.social' },
});
const size = statSync(imagePath).size;

const publishing = createPublishing({
  db,
  // As the daemon: checkpoints group-committed, so a kill can land between a commit and its fsync.
  commits: createCommits(db),
  clock: systemClock,
  adapters,
  connections: { credentialsFor: credentials, saveTokens: () => {}, markExpired: () => {} },
  media: {
    resolve: async (_user, urls) => urls.map((url) => ({ url, kind: 'image' as const, mimeType: 'image/jpeg', size, publicUrl: null, path: imagePath, sha256: null })),
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
