/**
 * A whole daemon (startDaemon: HTTP, scheduler, publisher, events, simulators in its own
 * process) over the data dir argv[2] and the PostgreSQL URL argv[3], on a free port. Prints
 * "ready <url>" once listening; closes cleanly on SIGTERM. The cluster tests start two and
 * SIGKILL one.
 */
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { silentLogger } from '../../src/util/logger';

const [dataDir, databaseUrl] = process.argv.slice(2);
if (!dataDir || !databaseUrl) throw new Error('usage: daemon-child.ts <data dir> <postgres url>');
const config = resolveConfig({ dataDir, databaseUrl, host: '127.0.0.1', port: 0, logLevel: 'error' }, {});
const daemon = await startDaemon(config, { logger: silentLogger });
process.stdout.write(`ready ${daemon.url}\n`);
process.on('SIGTERM', () => {
  void daemon.close().then(() => process.exit(0));
});
