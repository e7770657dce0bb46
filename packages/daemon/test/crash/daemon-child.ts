/**
 * The daemon process of the crash test: the real scheduler and publisher over the SQLite
 * file given as argv[2], publishing through the test adapter (SOCIALPUB_TEST_ADAPTER names
 * the ledger file). Prints "ready" once started; exits cleanly on SIGTERM. The test kills
 * it with SIGKILL at random moments and starts it again. Claims, checkpoints and ends are
 * batched per turn and group-committed, so the kills land between a batch's commit and its
 * fsync too.
 */
import { adaptersFromEnv, sandboxCredentials } from '../support/test-adapter';
import { childArgs, credentialsOnly, noMedia, runPublishingChild } from './publishing-child';

const [dbPath] = childArgs('daemon-child.ts', ['db']) as [string];
const adapters = adaptersFromEnv();
if (!adapters) throw new Error('SOCIALPUB_TEST_ADAPTER must name the ledger file');

await runPublishingChild(dbPath, {
  adapters,
  connections: credentialsOnly((userId, platform) => sandboxCredentials(userId, platform, 'crash test')),
  media: noMedia,
  scheduler: { sweepMs: 1_000 },
  publisher: { concurrency: 8, connectionConcurrency: 8, leaseMs: 10_000, sweepMs: 1_000 },
});
