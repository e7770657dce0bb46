import type { AddressInfo } from 'node:net';
import type { ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { SandboxFaults } from '@socialpub/core';
import { openSandboxDatabase, sandboxDbPath } from '../../store/sandbox-database';
import { startCheckpointer } from '../../store/checkpointer';
import { systemClock, type Clock } from '../../util/clock';
import type { RootLogger } from '../../util/logger';
import { createSandbox, SANDBOX_ENDPOINTS_KEY, SANDBOX_HTTPS_ENDPOINTS_KEY } from '../sandbox';
import { listenForSandbox, startSandboxOrigins, type SandboxEndpoints } from '../sandbox-origins';
import { sandboxCertificate } from '../sandbox-tls';
import { logSandboxFault } from './fault-stage';

export interface ServeSandboxOptions {
  /**
   * The data dir: the https origins' certificate and the simulators' own database
   * (`sandbox.db`: their state, sandbox_posts, the origins they served).
   */
  dataDir: string;
  /** The daemon's database, read only (its sandbox connections' owners, its users' faults). */
  dbPath: string;
  /** The port of `/sandbox/<host>/...` on 127.0.0.1 (default 0: the system picks). */
  port?: number;
  /** Faults for every user (SOCIALPUB_SANDBOX_*, config.json). */
  faults?: SandboxFaults;
  clock?: Clock;
  logger?: RootLogger;
}

export interface ServedSandbox {
  /** `http://127.0.0.1:<port>`: the simulators under `/sandbox/<host>/...`, as the daemon serves them. */
  url: string;
  port: number;
  /** host -> own origin (plain HTTP), and host -> https origin (the data dir's self-signed certificate). */
  endpoints: SandboxEndpoints;
  httpsEndpoints: SandboxEndpoints;
  close(): Promise<void>;
}

/**
 * Every simulator, keeping its state and posts in the data dir's `sandbox.db` (the daemon's
 * writes never wait on them) and reading the daemon's database read-only for whose sandbox
 * connection makes a call and that user's faults, at `<url>/sandbox/<host>/...` and
 * at each host's own loopback origins (the ports of the last run when free), which it
 * records for `socialpub sandbox endpoints`. What `socialpub sandbox serve` runs, alone or
 * as the daemon's simulator process, so a busy sandbox never holds the publisher's event loop.
 */
export async function serveSandbox(opts: ServeSandboxOptions): Promise<ServedSandbox> {
  const clock = opts.clock ?? systemClock;
  const opened = openSandboxDatabase({ path: sandboxDbPath(opts.dataDir, opts.dbPath), daemonDbPath: opts.dbPath });
  const { settings } = opened;
  const closers: (() => Promise<void> | void)[] = [() => opened.close()];
  // As the daemon's own database: SQLite's automatic checkpoint ran inside the commit that
  // crossed 1,000 WAL pages, fsyncing sandbox.db on the simulators' one thread (14% of its
  // time in bench/burst's 3,000 burst); a thread checkpoints instead (store/checkpointer.ts).
  const checkpointer = startCheckpointer(opened.db, opts.logger ? { log: opts.logger } : {});
  closers.push(() => checkpointer.stop());
  const close = async () => {
    for (const c of closers.splice(0).reverse()) await c();
  };
  try {
    const faults = opts.faults ?? {};
    const onFault = opts.logger ? logSandboxFault(opts.logger) : undefined;
    const sandbox = createSandbox({ store: opened.store, clock }, undefined, { faults: () => faults, ...(onFault ? { onFault } : {}) });
    const app = new Hono().route('/sandbox', sandbox.app);
    const server = await listenForSandbox(app.fetch, opts.port ?? 0);
    closers.push(() => closeServer(server));
    const port = (server.address() as AddressInfo).port;
    const origins = await startSandboxOrigins(sandbox.app, sandbox.hosts, {
      previous: settings.get<SandboxEndpoints>('global', SANDBOX_ENDPOINTS_KEY) ?? {},
      previousHttps: settings.get<SandboxEndpoints>('global', SANDBOX_HTTPS_ENDPOINTS_KEY) ?? {},
      tls: await sandboxCertificate(opts.dataDir),
    });
    closers.push(() => origins.close());
    settings.set('global', SANDBOX_ENDPOINTS_KEY, origins.endpoints);
    settings.set('global', SANDBOX_HTTPS_ENDPOINTS_KEY, origins.httpsEndpoints);
    return { url: `http://127.0.0.1:${port}`, port, endpoints: origins.endpoints, httpsEndpoints: origins.httpsEndpoints, close };
  } catch (e) {
    await close();
    throw e;
  }
}

function closeServer(server: ServerType): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
  });
}
