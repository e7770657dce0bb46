/**
 * The daemon of bench/events in its own process (so the receiver's and the SSE client's
 * clocks are not delayed by its work): startDaemon over the data dir argv[2], publishing
 * through the test adapter with 50-150 ms of latency per post, loopback webhook receivers
 * allowed. argv[3] is the variant: `notify` (the daemon as shipped) or `poll` (the events
 * hub wakes only on its 20 ms poll of the newest event id). Prints one JSON line
 * `{"url": …}` once listening; stops on SIGTERM.
 */
import { resolveConfig } from '../../packages/daemon/src/config';
import { startDaemon } from '../../packages/daemon/src/daemon';
import { silentLogger } from '../../packages/daemon/src/util/logger';
import { createTestAdapters, MemoryLedger } from '../../packages/daemon/test/support/test-adapter';

const [dataDir, variant = 'notify'] = process.argv.slice(2);
if (!dataDir || (variant !== 'notify' && variant !== 'poll')) throw new Error('usage: daemon.ts <data dir> notify|poll');

const config = resolveConfig(
  { dataDir, host: '127.0.0.1', port: 0, rateLimitsEnabled: false, webhookAllowPrivate: true },
  // 64 targets of the one connection in flight: 1,000 posts publish in a few seconds.
  { SOCIALPUB_PUBLISH_CONCURRENCY: 'connection=64' },
);
const daemon = await startDaemon(config, {
  logger: silentLogger,
  adapters: createTestAdapters(new MemoryLedger(), { latencyMs: [50, 150] }),
  eventsNotify: variant === 'notify',
});
process.stdout.write(`${JSON.stringify({ url: daemon.url })}\n`);
process.on('SIGTERM', () => {
  void daemon.close().then(() => process.exit(0));
});
