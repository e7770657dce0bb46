import { afterAll, describe, expect, it } from 'vitest';
import { simState } from '../../src/platforms/shared/sim/sim-state';
import { openSandboxDatabase, sandboxDbPath, type OpenedSandboxDatabase } from '../../src/store/sandbox-database';
import { testDatabaseConfig } from '../support/store-dialects';
import { useTempDirs } from '../support/temp-dirs';

/**
 * Several daemons' simulator processes over one PostgreSQL `sandbox` schema: each holds its
 * writes of a turn in one transaction until the turn ends (groupCommits). Their shared id
 * counters must not be rows locked by that transaction: another process advancing the same
 * counter would wait, its event loop held, until the first one's turn commits (with
 * several daemons, their platform calls timed out at 60 targets a second, docs/scaling.md).
 * Two stores here are two such processes (two connections, one thread: a wait would not
 * end before lock_timeout).
 */

const tempDir = useTempDirs();
const opened: OpenedSandboxDatabase[] = [];
afterAll(() => {
  for (const o of opened.splice(0)) o.close();
});
const turnEnd = () => new Promise((resolve) => setImmediate(resolve));

describe('shared simulator counters (PostgreSQL)', () => {
  it('one store advancing a counter while another holds its turn open neither waits nor repeats an id; a restart carries on', async () => {
    const dataDir = tempDir('sp-shared-counters-');
    const databaseUrl = testDatabaseConfig(dataDir).databaseUrl!;
    const open = () => {
      const o = openSandboxDatabase({ path: sandboxDbPath(dataDir, databaseUrl), daemonDbPath: databaseUrl });
      opened.push(o);
      return o;
    };
    const a = open();
    // A counter an older version kept as a row (or a copied SQLite file): the sequence starts there.
    a.db.prepare('INSERT INTO sandbox_state (simulator, kind, key, value) VALUES (?, ?, ?, ?)').run('x', '#counter', 'media', JSON.stringify('1880000000000000500'));
    const b = open();
    const stateA = simState(a.store, 'x');
    const stateB = simState(b.store, 'x');
    const postA = stateA.counter('post', 1_990_000_000_000_000_000n);
    const postB = stateB.counter('post', 1_990_000_000_000_000_000n);
    const mediaA = stateA.counter('media', 1_880_000_000_000_000_000n);
    const mediaB = stateB.counter('media', 1_880_000_000_000_000_000n);
    const fromA: bigint[] = [];
    const fromB: bigint[] = [];
    const waits: number[] = [];
    const timed = (next: () => bigint, into: bigint[]) => {
      const t0 = performance.now();
      into.push(next());
      waits.push(performance.now() - t0);
    };

    for (let round = 0; round < 3; round++) {
      // A's turn: a post made and recorded in one transaction, open until the turn ends.
      const posts = stateA.map<{ id: string }>('posts');
      stateA.atomically(() => {
        const id = postA();
        fromA.push(id);
        posts.set(String(id), { id: String(id) });
        fromA.push(mediaA());
      });
      expect(a.store.pendingCommit(), 'A holds its turn open').not.toBeNull();
      // B, meanwhile, in a turn of its own that is then open too; A advances again inside it.
      stateB.atomically(() => {
        timed(postB, fromB);
        timed(mediaB, fromB);
      });
      timed(postA, fromA);
      timed(mediaB, fromB);
      await turnEnd();
      expect(a.store.pendingCommit()).toBeNull();
      expect(b.store.pendingCommit()).toBeNull();
    }

    expect(Math.max(...waits), `advances took ${waits.map((w) => w.toFixed(1)).join(', ')} ms`).toBeLessThan(250);
    const all = [...fromA, ...fromB];
    expect(new Set(all).size).toBe(all.length);
    const posts = all.filter((id) => id >= 1_990_000_000_000_000_000n).sort((x, y) => (x < y ? -1 : 1));
    const media = all.filter((id) => id < 1_990_000_000_000_000_000n).sort((x, y) => (x < y ? -1 : 1));
    // Exact past 2^53, from the start value on, one value each.
    expect(posts).toEqual(Array.from({ length: 9 }, (_, i) => 1_990_000_000_000_000_000n + BigInt(i)));
    expect(media).toEqual(Array.from({ length: 9 }, (_, i) => 1_880_000_000_000_000_500n + BigInt(i)));
    // Increasing in each process, in the order it took them.
    for (const ids of [fromA.filter((id) => id >= 1_990_000_000_000_000_000n), fromB.filter((id) => id < 1_990_000_000_000_000_000n)]) {
      expect([...ids].sort((x, y) => (x < y ? -1 : 1))).toEqual(ids);
    }

    // A process started later (a restarted daemon) carries on above every id handed out.
    const c = open();
    expect(simState(c.store, 'x').counter('post', 1_990_000_000_000_000_000n)()).toBe(1_990_000_000_000_000_009n);
  });
});
