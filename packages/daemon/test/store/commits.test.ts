import { readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, resolveConfig } from '../../src/config';
import { createCommits, walFileSync } from '../../src/store/commits';
import { openDatabase, type DB } from '../../src/store/database';
import { useTempDirs } from '../support/temp-dirs';
import { walFileDb } from '../support/wal-file-db';

const tempDir = useTempDirs();
const fileDb = () => walFileDb(tempDir('sp-commits-'));

/** A WAL sync whose syncs the test finishes by hand, in order. */
function manualSync() {
  const started: { path: string; done: () => void; fail: (e: Error) => void }[] = [];
  const syncFile = (path: string) => ({
    sync: () =>
      new Promise<void>((resolve, reject) => {
        started.push({ path, done: resolve, fail: reject });
      }),
    close: () => undefined,
  });
  return { started, syncFile };
}

/** Lets pending callbacks run (the next sync starts a turn of the event loop after the last). */
const turn = async () => {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};
const settled = <T>(p: Promise<T>) => {
  const state = { done: false };
  void p.then(
    () => (state.done = true),
    () => (state.done = true),
  );
  return state;
};
const insert = (db: DB, v: string) => () => db.prepare('INSERT INTO t (v) VALUES (?)').run(v);
const rows = (db: DB) => db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all();

describe('durable commits', () => {
  it('answers only after a WAL sync that started after the commit; commits made during a sync share one started beside it, not after it', async () => {
    const { db, path } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);

    const first = commits.durable(insert(db, 'a'));
    expect(rows(db)).toEqual(['a']); // committed at once, visible to readers
    expect(started).toHaveLength(1);
    expect(started[0]!.path).toBe(`${path}-wal`);
    const firstState = settled(first);

    // Written while the first sync runs: that sync may have missed their frames.
    const second = settled(commits.durable(insert(db, 'b')));
    const third = settled(commits.durable(insert(db, 'c')));
    expect(started).toHaveLength(1);
    await turn();
    // One sync for both, started at the end of their turn while the first still runs (it
    // waited for the first to end before: up to two syncs for one commit).
    expect(started).toHaveLength(2);
    expect([firstState.done, second.done, third.done]).toEqual([false, false, false]);

    // Their sync ends first: they are answered, the first commit still waits for its own.
    started[1]!.done();
    await turn();
    expect([firstState.done, second.done, third.done]).toEqual([false, true, true]);
    started[0]!.done();
    await turn();
    expect(firstState.done).toBe(true);
    expect(started).toHaveLength(2);
    expect(rows(db)).toEqual(['a', 'b', 'c']);
  });

  it('runs at most two syncs at once: a commit made while two run gets the next one after either ends', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);
    const a = settled(commits.durable(insert(db, 'a')));
    await turn();
    const b = settled(commits.durable(insert(db, 'b')));
    await turn();
    expect(started).toHaveLength(2);
    const c = settled(commits.durable(insert(db, 'c')));
    const d = settled(commits.durable(insert(db, 'd')));
    await turn();
    expect(started).toHaveLength(2);
    started[1]!.done();
    await turn();
    expect([a.done, b.done, c.done, d.done]).toEqual([false, true, false, false]);
    // One ended: the commits since share the third sync.
    expect(started).toHaveLength(3);
    started[2]!.done();
    await turn();
    expect([a.done, c.done, d.done]).toEqual([false, true, true]);
    started[0]!.done();
    await turn();
    expect(a.done).toBe(true);
    expect(started).toHaveLength(3);
  });

  it('commits with NORMAL and puts the connection back to FULL for every other writer', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);
    const during: unknown[] = [];
    const done = commits.durable(() => during.push(db.pragma('synchronous', { simple: true })));
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    started[0]!.done();
    await done;
    commits.relaxed(() => during.push(db.pragma('synchronous', { simple: true })));
    expect(during).toEqual([1, 1]);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('rolls back, restores FULL and syncs nothing when the transaction throws', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);
    await expect(
      commits.durable(() => {
        insert(db, 'x')();
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(rows(db)).toEqual([]);
    expect(started).toHaveLength(0);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('fails the commits waiting for a sync that fails', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);
    const pending = commits.durable(insert(db, 'a'));
    started[0]!.fail(new Error('EIO'));
    await expect(pending).rejects.toThrow('EIO');
    // The next commit gets a sync of its own.
    const next = commits.durable(insert(db, 'b'));
    await turn();
    expect(started).toHaveLength(2);
    started[1]!.done();
    await expect(next).resolves.toBeDefined();
  });

  it('with SOCIALPUB_SQLITE_SYNC=normal answers once committed, without a sync', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'normal', syncFile);
    await commits.durable(insert(db, 'a'));
    expect(started).toHaveLength(0);
    expect(rows(db)).toEqual(['a']);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
  });

  it('syncs the real WAL file, and the commit is in the database when it is opened again', async () => {
    const { db, path } = fileDb();
    const commits = createCommits(db, 'full');
    await Promise.all([commits.durable(insert(db, 'a')), commits.durable(insert(db, 'b')), commits.durable(insert(db, 'c'))]);
    const again = openDatabase(path);
    expect(rows(again)).toEqual(['a', 'b', 'c']);
    again.close();
    commits.close();
    db.close();
  });

  it('runs inside an outer transaction as part of it, leaving the outer commit to decide', async () => {
    const { db } = fileDb();
    const { started, syncFile } = manualSync();
    const commits = createCommits(db, 'full', syncFile);
    expect(() =>
      db.transaction(() => {
        void commits.durable(insert(db, 'inner'));
        throw new Error('outer rolls back');
      })(),
    ).toThrow('outer rolls back');
    expect(rows(db)).toEqual([]);
    expect(started).toHaveLength(0);
  });
});

describe('SOCIALPUB_SQLITE_SYNC', () => {
  it('defaults to full, accepts normal in any case, and refuses anything else', () => {
    expect(resolveConfig({ dataDir: '/tmp/sp' }, {}).sqliteSync).toBe('full');
    expect(resolveConfig({ dataDir: '/tmp/sp' }, { SOCIALPUB_SQLITE_SYNC: 'Normal' }).sqliteSync).toBe('normal');
    expect(() => resolveConfig({ dataDir: '/tmp/sp' }, { SOCIALPUB_SQLITE_SYNC: 'off' })).toThrow(ConfigError);
    expect(() => resolveConfig({ dataDir: '/tmp/sp' }, { SOCIALPUB_SQLITE_SYNC: 'off' })).toThrow('SOCIALPUB_SQLITE_SYNC must be full or normal');
  });
});

describe('the WAL file sync', () => {
  it('keeps one handle across syncs, reopens it when the file is replaced, and resolves for a missing file', async () => {
    const dir = tempDir('sp-walsync-');
    const path = join(dir, 'x-wal');
    const wal = walFileSync(path);
    await wal.sync(); // no file yet: nothing to sync
    writeFileSync(path, 'a');
    await wal.sync();
    const opened = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
      } catch {
        return false;
      }
    });
    expect(opened()).toHaveLength(1);
    await wal.sync();
    expect(opened()).toHaveLength(1);
    // Replaced (a new inode): the old handle is dropped, the new file is the one synced.
    rmSync(path);
    writeFileSync(path, 'b');
    await wal.sync();
    const links = opened().map((fd) => readlinkSync(`/proc/self/fd/${fd}`));
    expect(links).toEqual([path]);
    wal.close();
    expect(opened()).toHaveLength(0);
  });

  it('runs syncs at once on one handle, and closes a handle given up only when the syncs on it end', async () => {
    const dir = tempDir('sp-walsync-');
    const path = join(dir, 'x-wal');
    writeFileSync(path, 'a');
    const wal = walFileSync(path);
    const handles = () => readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
      } catch {
        return false;
      }
    });
    const both = Promise.all([wal.sync(), wal.sync()]);
    expect(handles()).toHaveLength(1);
    // Given up while both run: still open until they end (a closed number could be reused by another file).
    wal.close();
    expect(handles()).toHaveLength(1);
    await both;
    expect(handles()).toHaveLength(0);
  });
});
