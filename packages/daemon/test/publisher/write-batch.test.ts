import { describe, expect, it } from 'vitest';
import { WriteBatch } from '../../src/publisher/write-batch';
import { isolatedWrites } from '../../src/store/postgres/pg-database';
import { openTestDatabase } from '../support/store-dialects';

describe('WriteBatch', () => {
  it('commits the writes of one turn in one transaction, each resolving with its own result, and a failing one rejects only its caller', async () => {
    const db = openTestDatabase(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
    const transactions: number[] = [];
    const durable: number[] = [];
    const batch = new WriteBatch(
      {
        durable: async (fn) => {
          const r = fn();
          durable.push(db.prepare('SELECT count(*) FROM t').pluck().get() as number);
          return r;
        },
      },
      (fn) => {
        transactions.push(1);
        db.transaction(fn).immediate();
      },
      isolatedWrites(db),
    );
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    const a = batch.run(() => insert.run(1, 'a').changes);
    const bad = batch.run(() => insert.run(1, 'duplicate').changes);
    const c = batch.run(() => insert.run(2, 'c').changes);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    await expect(a).resolves.toBe(1);
    await expect(bad).rejects.toThrow(/UNIQUE|unique constraint/);
    await expect(c).resolves.toBe(1);
    expect(transactions).toEqual([1]);
    expect(durable).toEqual([2]);
    await expect(batch.run(() => insert.run(3, 'd').changes)).resolves.toBe(1);
    expect(transactions).toEqual([1, 1]);
    db.close();
  });
});
