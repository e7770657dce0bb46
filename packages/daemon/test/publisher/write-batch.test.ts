import { describe, expect, it } from 'vitest';
import { WriteBatch } from '../../src/publisher/write-batch';
import { openDatabase } from '../../src/store/database';

describe('WriteBatch', () => {
  it('commits the writes of one turn in one transaction, each resolving with its own result, and a failing one rejects only its caller', async () => {
    const db = openDatabase(':memory:');
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
    );
    const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
    const a = batch.run(() => insert.run(1, 'a').changes);
    const bad = batch.run(() => insert.run(1, 'duplicate').changes);
    const c = batch.run(() => insert.run(2, 'c').changes);
    expect(db.prepare('SELECT count(*) FROM t').pluck().get()).toBe(0);
    await expect(a).resolves.toBe(1);
    await expect(bad).rejects.toThrow(/UNIQUE/);
    await expect(c).resolves.toBe(1);
    expect(transactions).toEqual([1]);
    expect(durable).toEqual([2]);
    await expect(batch.run(() => insert.run(3, 'd').changes)).resolves.toBe(1);
    expect(transactions).toEqual([1, 1]);
    db.close();
  });

  it('holds the writes of later turns while a batch waits for its fsync, then commits them in one transaction, none resolving before its own is on disk', async () => {
    const db = openDatabase(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const transactions: number[][] = [];
    const syncs: (() => void)[] = [];
    const batch = new WriteBatch(
      {
        durable: async (fn) => {
          const r = fn();
          await new Promise<void>((resolve) => syncs.push(resolve));
          return r;
        },
      },
      (fn) => {
        const before = db.prepare('SELECT count(*) FROM t').pluck().get() as number;
        db.transaction(fn).immediate();
        transactions.push([before, db.prepare('SELECT count(*) FROM t').pluck().get() as number]);
      },
    );
    const insert = db.prepare('INSERT INTO t (id) VALUES (?)');
    const resolved: number[] = [];
    const write = (id: number) => batch.run(() => insert.run(id)).then(() => void resolved.push(id));
    const first = write(1);
    const turn = () => new Promise((r) => setImmediate(r));
    await turn();
    expect(transactions).toEqual([[0, 1]]);
    // Two more turns while the first batch's fsync runs: nothing committed, nothing resolved.
    const second = write(2);
    await turn();
    const third = write(3);
    await turn();
    await turn();
    expect(transactions).toEqual([[0, 1]]);
    expect(resolved).toEqual([]);
    syncs[0]!();
    await first;
    await turn();
    // Both later writes in one transaction, committed once the first was on disk.
    expect(transactions).toEqual([
      [0, 1],
      [1, 3],
    ]);
    expect(resolved).toEqual([1]);
    syncs[1]!();
    await Promise.all([second, third]);
    expect(resolved).toEqual([1, 2, 3]);
    // Idle again: the next write commits at the end of its turn.
    const fourth = write(4);
    await turn();
    expect(transactions).toHaveLength(3);
    syncs[2]!();
    await fourth;
    db.close();
  });
});
