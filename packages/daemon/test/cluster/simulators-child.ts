/**
 * One daemon's simulators' process as `sandbox serve` runs it: the sandbox app over the
 * simulators' store of the data dir argv[2] and the PostgreSQL URL argv[3] (its `sandbox`
 * schema, one turn's writes a transaction), on a free loopback port, on the real clock.
 * Prints "ready <url>" once listening; closes on SIGTERM. shared-simulators-concurrent.test.ts
 * starts two and sends them the same calls at once.
 */
import { serve } from '@hono/node-server';
import { createSandboxApp } from '../../src/platforms/sandbox';
import { openSandboxDatabase, sandboxDbPath } from '../../src/store/sandbox-database';
import { systemClock } from '../../src/util/clock';

const [dataDir, databaseUrl] = process.argv.slice(2);
if (!dataDir || !databaseUrl) throw new Error('usage: simulators-child.ts <data dir> <postgres url>');
const opened = openSandboxDatabase({ path: sandboxDbPath(dataDir, databaseUrl), daemonDbPath: databaseUrl });
const app = createSandboxApp({ store: opened.store, clock: systemClock });
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => process.stdout.write(`ready http://127.0.0.1:${info.port}\n`));
process.on('SIGTERM', () => {
  server.close(() => {
    opened.close();
    process.exit(0);
  });
});
