import { Worker } from 'node:worker_threads';
import { inject, describe, expect, it } from 'vitest';
import { SyncPostgresClient } from '../../src/store/postgres/sync-client';

/**
 * The synchronous PostgreSQL client waits on a shared flag for the worker's answer. The
 * worker sets the flag, then notifies; a notify can come late, after this thread has read
 * that answer and begun waiting for the next one. Such a wake-up must not be taken for an
 * answer: before, the client found no answer in its port, closed a healthy connection, and
 * every later statement failed with "the database connection is closed" (CI, on a loaded
 * machine: a 500 from GET /queue, a daemon's webhook deliverer, a simulator's write).
 *
 * Here another thread notifies the flag without pause while the client runs its
 * statements: every wake-up it causes is a late one.
 */
describe('the synchronous PostgreSQL client', () => {
  it('takes a wake-up with no answer behind it for what it is, and reads each answer as its own statement', async () => {
    const flag = new Int32Array(new SharedArrayBuffer(4));
    const client = new SyncPostgresClient(inject('postgresUrl'), { name: 'sync-client-test', flag });
    const notifier = new Worker(
      `const { workerData } = require('node:worker_threads');
       const flag = new Int32Array(workerData);
       const end = performance.now() + 20000;
       while (performance.now() < end) Atomics.notify(flag, 0);`,
      { eval: true, workerData: flag.buffer },
    );
    try {
      await new Promise((resolve) => notifier.once('online', resolve));
      for (let i = 0; i < 2_000; i++) {
        const r = client.query('SELECT $1::int AS n', [i]);
        expect(r.rows).toEqual([[i]]);
      }
      expect(client.closed).toBe(false);
    } finally {
      await notifier.terminate();
      client.close();
    }
  });
});
