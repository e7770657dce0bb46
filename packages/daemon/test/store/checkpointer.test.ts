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
