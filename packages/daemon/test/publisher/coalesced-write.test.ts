import { describe, expect, it } from 'vitest';
import { CoalescedWrite } from '../../src/publisher/coalesced-write';
import { WriteBatch } from '../../src/publisher/write-batch';
import { isolatedWrites } from '../../src/store/postgres/pg-database';
import { openTestDatabase } from '../support/store-dialects';

function setup(durable: (fn: () => unknown) => Promise<unknown> = async (fn) => fn()) {
  const db = openTestDatabase(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const batch = new WriteBatch({ durable: durable as <T>(fn: () => T) => Promise<T> }, (fn) => db.transaction(fn).immediate(), isolatedWrites(db));
  const calls: number[][] = [];
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  // Inserts the rows and answers each with its row count so far; a transaction, as `many` must be.
  const many = db.transaction((ids: readonly number[]) => {
    calls.push([...ids]);
    return ids.map((id) => {
      insert.run(id, `v${id}`);
      return db.prepare('SELECT count(*) FROM t').pluck().get() as number;
    });
  });
  return { db, batch, calls, write: new CoalescedWrite<number, number>(batch, (ids) => many(ids)) };
}

describe('CoalescedWrite', () => {
  it('makes the writes of one turn one call, each caller getting its own result, and the next turn a new call', async () => {
    const { batch, calls, write } = setup();
    const first = [1, 2, 3].map((id) => write.run(id));
    // Written in the same turn as another kind of write: both in the one batch.
    const other = batch.run(() => 'other');
    expect(calls).toEqual([]);
    await expect(Promise.all(first)).resolves.toEqual([1, 2, 3]);
    await expect(other).resolves.toBe('other');
    expect(calls).toEqual([[1, 2, 3]]);
    await expect(Promise.all([write.run(4), write.run(5)])).resolves.toEqual([4, 5]);
    expect(calls).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('rejects every caller of a call that fails, and writes none of it', async () => {
    const { db, calls, write } = setup();
    const results = await Promise.allSettled([write.run(1), write.run(1), write.run(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/UNIQUE|unique constraint/);
    expect(calls).toEqual([[1, 1, 2]]);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    await expect(write.run(3)).resolves.toBe(1);
  });

  it('rejects the waiting callers when the batch never reaches the disk, and goes on afterwards', async () => {
    let failNext = true;
    const { calls, write } = setup(async (fn) => {
      if (failNext) {
        failNext = false;
        throw new Error('disk full');
      }
      return fn();
    });
    const results = await Promise.allSettled([write.run(1), write.run(2)]);
    expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : r.value))).toEqual(['Error: disk full', 'Error: disk full']);
    expect(calls).toEqual([]);
    await expect(Promise.all([write.run(1), write.run(2)])).resolves.toEqual([1, 2]);
    expect(calls).toEqual([[1, 2]]);
  });

  it('writes the same items again when its batch is undone by a deadlock with another daemon, and every caller gets its result', async () => {
    let conflicts = 1;
    // The batch commits after `fn` unless a conflict is due: then, as PostgreSQL does, the whole transaction is undone.
    const { db, calls, write } = setup(async (fn) => {
      if (conflicts === 0) return fn();
      conflicts--;
      return db.transaction(() => {
        fn();
        throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
      })();
    });
    const results = await Promise.all([write.run(1), write.run(2)]);
    expect(results).toEqual([1, 2]);
    // Written twice (the first undone), each time with both items; one row each in the end.
    expect(calls).toEqual([
      [1, 2],
      [1, 2],
    ]);
    expect(db.prepare('SELECT id FROM t ORDER BY id').pluck().all()).toEqual([1, 2]);
  });
});
