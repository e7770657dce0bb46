/**
 * A whole daemon (startDaemon, as `socialpub daemon run` starts it) in a process of its
 * own, for the hardening tests: argv[2] is the data dir. Webhook host names ending in
 * `.probe.test` resolve to PROBE_ADDRESS (the test's hosts mapping); webhook_allow_private
 * and media_allow_private are on when PROBE_ALLOW_PRIVATE=1. Prints "ready <url>"; SIGTERM closes it.
 */
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { systemResolver, type HostResolver } from '../../src/net/address-guard';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: daemon-child.ts <data dir>');
const address = process.env.PROBE_ADDRESS ?? '';
const resolve: HostResolver = async (name) => (name.endsWith('.probe.test') ? [{ address, family: address.includes(':') ? 6 : 4 }] : systemResolver(name));
// Rate limits off: the tests repeat refused requests to measure them, which the limits would answer with 429.
const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0, logLevel: 'warn', rateLimitsEnabled: false, webhookAllowPrivate: process.env.PROBE_ALLOW_PRIVATE === '1', mediaAllowPrivate: process.env.PROBE_ALLOW_PRIVATE === '1' }, {});
const daemon = await startDaemon(config, { webhookResolve: resolve });
process.stdout.write(`ready ${daemon.url}\n`);
process.on('SIGTERM', () => {
  void daemon.close().then(() => process.exit(0));
});
