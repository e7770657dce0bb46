import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { sandboxPostSink } from '../../../src/platforms/shared/sim/sandbox-post-sink';
import { simState } from '../../../src/platforms/shared/sim/sim-state';
import { openDatabase } from '../../../src/store/database';
import { sandboxStore } from '../../support/sandbox-records';

const dir = mkdtempSync(join(tmpdir(), 'sp-sim-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A simulator database on disk and a second connection that sees only what is committed (what a SIGKILL would leave). */
function files() {
  const path = join(dir, `s${++n}.db`);
  const db = openDatabase(path);
  const disk = new Database(path);
  const committed = () => ({
    state: disk.prepare("SELECT key FROM sandbox_state WHERE simulator = 'sim' AND kind = 'posts' ORDER BY key").pluck().all(),
    rows: disk.prepare('SELECT post_id FROM sandbox_posts ORDER BY post_id').pluck().all(),
  });
  return { db, committed, close: () => (disk.close(), db.close()) };
}

const post = (id: string) => ({ platform: 'twitter' as const, accountId: 'a', postId: id, postUrl: null, kind: 'tweet', body: {}, createdAt: 1 });

describe('SimState.atomically', () => {
  it('puts the state and the sandbox_posts row in one transaction: nothing is committed until it ends', () => {
    const f = files();
    const state = simState(sandboxStore(f.db), 'sim');
    const posts = state.map<{ id: string }>('posts');
    const sink = sandboxPostSink(sandboxStore(f.db))!;
    let inside: ReturnType<typeof f.committed> | null = null;
    state.atomically(() => {
      posts.set('p1', { id: 'p1' });
      sink(post('p1'));
      inside = f.committed();
    });
    expect(inside).toEqual({ state: [], rows: [] });
    expect(f.committed()).toEqual({ state: ['p1'], rows: ['p1'] });
    f.close();
  });

  it('commits what was written when fn throws (disk matches memory), and joins an enclosing call', () => {
    const f = files();
    const state = simState(sandboxStore(f.db), 'sim');
    const posts = state.map<{ id: string }>('posts');
    expect(() =>
      state.atomically(() => {
        posts.set('p1', { id: 'p1' });
        state.atomically(() => posts.set('p2', { id: 'p2' }));
        throw new Error('handler bug');
      }),
    ).toThrow('handler bug');
    expect(posts.has('p1')).toBe(true);
    expect(f.committed().state).toEqual(['p1', 'p2']);
    expect(f.db.inTransaction).toBe(false);
    f.close();
  });

  it('refuses an async fn (a transaction cannot span an await) and restores the connection to synchronous=FULL', () => {
    const f = files();
    const state = simState(sandboxStore(f.db), 'sim');
    expect(() => state.atomically(async () => undefined)).toThrow(/must be synchronous/);
    expect(f.db.pragma('synchronous', { simple: true })).toBe(2);
    f.close();
  });

  it('without a database it just runs fn', () => {
    const state = simState(null, 'sim');
    expect(state.atomically(() => 42)).toBe(42);
  });
});
