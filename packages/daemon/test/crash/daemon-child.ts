/**
 * The daemon process of the crash test: the real scheduler and publisher over the SQLite
 * file given as argv[2], publishing through the test adapter (SOCIALPUB_TEST_ADAPTER names
 * the ledger file). Prints "ready" once started; exits cleanly on SIGTERM. The test kills
 * it with SIGKILL at random moments and starts it again.
 */
import type { Platform } from '@socialpub/core';
import { adaptersFromEnv, sandboxCredentials } from '../support/test-adapter';
import { createPublishing } from '../../src/publisher/create-publishing';
import { createCommits } from '../../src/store/commits';
import { openDatabase } from '../../src/store/database';
import { systemClock } from '../../src/util/clock';

const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: daemon-child.ts <db>');
const adapters = adaptersFromEnv();
if (!adapters) throw new Error('SOCIALPUB_TEST_ADAPTER must name the ledger file');

const db = openDatabase(dbPath);
const sandbox = (userId: string, platform: Platform) => sandboxCredentials(userId, platform, 'crash test');

const publishing = createPublishing({
  db,
  // As the daemon: claims, checkpoints and ends batched per turn and group-committed, so the kills land between a batch's commit and its fsync too.
  commits: createCommits(db),
  clock: systemClock,
  adapters,
  connections: { credentialsFor: sandbox, saveTokens: () => {}, markExpired: () => {} },
  media: { resolve: async () => [] },
  scheduler: { sweepMs: 1_000 },
  publisher: { concurrency: 8, connectionConcurrency: 8, leaseMs: 10_000, sweepMs: 1_000 },
});

await publishing.start();
process.stdout.write('ready\n');
process.on('SIGTERM', () => {
  void publishing.stop(2_000).then(() => {
    db.close();
    process.exit(0);
  });
});
