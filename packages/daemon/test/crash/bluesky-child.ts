/**
 * The daemon process of the Bluesky SIGKILL test: the real scheduler, publisher and Bluesky
 * adapter over the SQLite file argv[2], posting to the Bluesky simulator the test process
 * serves at argv[3] (so what was posted survives this process being killed). Prints
 * "ready" once started; exits cleanly on SIGTERM.
 */
import type { Platform } from '@socialpub/core';
import type { PlatformAdapter } from '../../src/platforms/adapter';
import { createBlueskyAdapter } from '../../src/platforms/bluesky/adapter';
import { createPublishing } from '../../src/publisher/create-publishing';
import { createCommits } from '../../src/store/commits';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';
import { sandboxCredentials } from '../support/test-adapter';

const [dbPath, simUrl] = process.argv.slice(2);
if (!dbPath || !simUrl) throw new Error('usage: bluesky-child.ts <db> <simulator url>');

const db = openDatabase(dbPath);
const adapters = new Map<Platform, PlatformAdapter>([['bluesky', createBlueskyAdapter({ requestTimeoutMs: 5_000, linkCards: null })]]);
const credentials = (userId: string, platform: Platform) => ({
  ...sandboxCredentials(userId, platform, 'bluesky crash test'),
  accountId: null,
  secrets: { access_token: 'sandbox_at_sigkill.0123456789abcdef', refresh_token: 'sandbox_rt_sigkill.0123456789abcdef' },
  meta: { sandbox: true },
});

const publishing = createPublishing({
  db,
  // As the daemon: checkpoints group-committed, so a kill can land between a commit and its fsync.
  commits: createCommits(db),
  clock: systemClock,
  adapters,
  connections: { credentialsFor: credentials, saveTokens: () => {}, markExpired: () => {} },
  media: { resolve: async () => [] },
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
