import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../src/store/checkpointer';
import { openDatabase } from '../../src/store/database';
import { useTempDirs } from '../support/temp-dirs';
import { walFileDb } from '../support/wal-file-db';

const tempDir = useTempDirs();
const fileDb = () => walFileDb(tempDir('sp-checkpoint-'));

describe('checkpoint thread', () => {
  it('turns the commit-time checkpoint off and copies the WAL into the database from its own thread', async () => {
    const { db, path } = fileDb();
    // A long interval: only the explicit checkpoints below run.
    const checkpointer = startCheckpointer(db, { intervalMs: 3_600_000 });
    try {
      expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      for (let i = 0; i < 2000; i++) insert.run('x'.repeat(2000));
      // 2,000 rows of 2 kB: far past 1,000 pages, yet nothing was checkpointed on commit.
      const sizeBefore = statSync(path).size;
      const result = await checkpointer.now();
      expect(result.busy).toBe(0);
      expect(result.log).toBeGreaterThan(1000);
      expect(result.checkpointed).toBe(result.log);
      expect(statSync(path).size).toBeGreaterThan(sizeBefore + 2000 * 2000);
    } finally {
      await checkpointer.stop();
    }
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    db.close();
    const again = openDatabase(path);
    expect(again.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2000);
    again.close();
  });

  it('lets frames gather in the WAL until 1,000 (or the max age), so the WAL starts over, with its header fsync on the writer, rarely', async () => {
    const { db, path } = fileDb();
    // Looked at every 20 ms; the max age far away: only the frame count decides here.
    const checkpointer = startCheckpointer(db, { intervalMs: 20, maxAgeMs: 3_600_000 });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
      const sizeBefore = statSync(path).size;
      // About 200 frames (2 kB rows, one or two to a page, a commit each): under 1,000.
      for (let i = 0; i < 100; i++) insert.run('x'.repeat(2000));
      await sleep(300);
      // Fifteen looks later the rows are still only in the WAL (every 250 ms before, they were copied at once).
      expect(statSync(path).size).toBe(sizeBefore);
      for (let i = 0; i < 1000; i++) insert.run('x'.repeat(2000));
      const deadline = performance.now() + 5_000;
      while (statSync(path).size < sizeBefore + 1100 * 2000 && performance.now() < deadline) await sleep(20);
      expect(statSync(path).size).toBeGreaterThanOrEqual(sizeBefore + 1100 * 2000);
    } finally {
      await checkpointer.stop();
    }
    db.close();
  });

  it('checkpoints a WAL of a few frames once they are older than the max age', async () => {
    const { db, path } = fileDb();
    const checkpointer = startCheckpointer(db, { intervalMs: 20, maxAgeMs: 200 });
    try {
      const sizeBefore = statSync(path).size;
      db.prepare('INSERT INTO t (v) VALUES (?)').run('x'.repeat(8000));
      const deadline = performance.now() + 5_000;
      while (statSync(path).size <= sizeBefore && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(statSync(path).size).toBeGreaterThan(sizeBefore + 8000);
    } finally {
      await checkpointer.stop();
    }
    db.close();
  });

  it('puts the commit-time checkpoint back, and fails waiting callers, when the thread dies', async () => {
    const { db, path } = fileDb();
    // The thread cannot open the file (its directory is gone; the main connection keeps its handle).
    rmSync(join(path, '..'), { recursive: true, force: true });
    const checkpointer = startCheckpointer(db, { intervalMs: 3_600_000 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await expect(checkpointer.now()).rejects.toThrow('checkpoint thread stopped');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    await checkpointer.stop();
    db.close();
  });
});
