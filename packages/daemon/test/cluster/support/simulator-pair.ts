import { expect } from 'vitest';
import { createSandboxApp } from '../../../src/platforms/sandbox';
import { openDatabase } from '../../../src/store/database';
import { openSandboxDatabase, sandboxDbPath, type OpenedSandboxDatabase } from '../../../src/store/sandbox-database';
import type { ManualClock } from '../../../src/util/clock';
import { testDatabaseConfig } from '../../support/store-dialects';

export type SandboxApp = ReturnType<typeof createSandboxApp>;
type Database = ReturnType<typeof openDatabase>;

/**
 * Two daemons' simulators over one PostgreSQL database, in one thread: two stores (two
 * connections) and two sandbox apps, A loaded and its first writes committed before B is
 * made. `probe` and `holder` are two more connections to the daemon's schema: one to read
 * the server's transaction horizon, one to hold it (holdHorizon).
 */
export interface SimulatorPair {
  a: SandboxApp;
  b: SandboxApp;
  /** A's sandbox store, and B's. */
  first: OpenedSandboxDatabase;
  second: OpenedSandboxDatabase;
  probe: Database;
  holder: Database;
  close(): void;
}

export async function openSimulatorPair(dataDir: string, clock: ManualClock): Promise<SimulatorPair> {
  const databaseUrl = testDatabaseConfig(dataDir).databaseUrl!;
  const probe = openDatabase(databaseUrl);
  const holder = openDatabase(databaseUrl);
  const opened: OpenedSandboxDatabase[] = [];
  const open = () => {
    const o = openSandboxDatabase({ path: sandboxDbPath(dataDir, databaseUrl), daemonDbPath: databaseUrl });
    opened.push(o);
    return o;
  };
  const first = open();
  const a = createSandboxApp({ store: first.store, clock });
  // A's first writes commit at the end of this turn (groupCommits); two processes do not
  // share a thread, two stores here do: B writes the same rows once A's are committed.
  await new Promise((resolve) => setImmediate(resolve));
  const second = open();
  const b = createSandboxApp({ store: second.store, clock });
  return {
    a,
    b,
    first,
    second,
    probe,
    holder,
    close() {
      if (holder.inTransaction) holder.exec('ROLLBACK');
      for (const o of opened.splice(0)) o.close();
      probe.close();
      holder.close();
    },
  };
}

/**
 * Waits until every transaction begun before now has ended, as the time between a daemon's
 * death and another's read-back does in a cluster. A simulator catches up on what the others
 * wrote below the oldest transaction still running anywhere on the server (store/sandbox-store.ts),
 * so a read made the moment after the write can miss it while a transaction of another test
 * file, begun before the write, is still open: that is a read too early, not a lost write.
 */
export async function othersSettled(probe: Database): Promise<void> {
  const now = probe.prepare<[], { x: number }>('SELECT pg_current_xact_id()::text::bigint AS x').get()!.x;
  const horizon = probe.prepare<[], { x: number }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS x');
  for (let i = 0; i < 500 && horizon.get()!.x <= now; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(horizon.get()!.x, 'a transaction begun before the write is still open after 10 s').toBeGreaterThan(now);
}

/** Holds every simulator's catch-up horizon where it is until `release` (a transaction with an id, left open on `holder`). */
export function holdHorizon(holder: Database): { release: () => void } {
  holder.exec('BEGIN');
  holder.prepare('SELECT pg_current_xact_id()').get();
  return { release: () => void holder.exec('COMMIT') };
}
