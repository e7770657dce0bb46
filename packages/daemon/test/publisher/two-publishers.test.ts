import type { World } from '../scheduler/harness';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../support/test-adapter';
import { openTestDatabase } from '../support/store-dialects';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { makeWorld, seedUser, T0 } from '../scheduler/harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Two publishers, each with its own better-sqlite3 connection to one database file (as two
 * daemon processes would have), sharing a clock and the platform's ledger. Each publisher
 * runs one twitter target at a time and every post takes a second, so a target dispatched
 * to a busy publisher waits in its gate, already past the publisher's own checks.
 */
function twoPublishers(): { a: World; b: World; ledger: MemoryLedger } {
  const dir = mkdtempSync(join(tmpdir(), 'sp-two-publishers-'));
  const path = join(dir, 'socialpub.db');
  const clock = new ManualClock(T0);
  const ledger = new MemoryLedger();
  const dbA = openTestDatabase(path);
  const dbB = openTestDatabase(path);
  seedUser(dbA, T0);
  // Owners on other hosts: neither publisher may take the other for a dead process.
  const common = { clock, ledger, latencyMs: [1_000, 1_000] as [number, number] };
  const a = makeWorld({ ...common, db: dbA, publisher: { owner: 'host-a/101/aaaa', concurrency: 1 } });
  const b = makeWorld({ ...common, db: dbB, publisher: { owner: 'host-b/202/bbbb', concurrency: 1 } });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => {
    dbA.close();
  });
  cleanups.push(() => {
    dbB.close();
  });
  cleanups.push(() => a.stop());
  cleanups.push(() => b.stop());
  return { a, b, ledger };
}

describe('two publishers over one database file', () => {
  it('lets the compare-and-set claim, not the in-memory guard, decide which one publishes a target', async () => {
    const { a, b, ledger } = twoPublishers();
    const blockerA = a.add({ due: T0 });
    const blockerB = a.add({ due: T0 });
    const target = a.add({ due: T0, caption: 'once only' });
    // b reads what a wrote: the same file, not a copy.
    expect(b.row(target)).toMatchObject({ status: 'scheduled', attempts: 0 });

    a.publisher.start();
    b.publisher.start();
    a.publisher.dispatch(blockerA);
    b.publisher.dispatch(blockerB);
    await flushMicrotasks();
    expect(a.row(blockerA)).toMatchObject({ status: 'publishing', lease_owner: 'host-a/101/aaaa' });
    expect(a.row(blockerB)).toMatchObject({ status: 'publishing', lease_owner: 'host-b/202/bbbb' });

    // Both publishers read the target as scheduled and due, and each takes it in hand.
    a.publisher.dispatch(target);
    b.publisher.dispatch(target);
    expect(a.publisher.busy).toBe(2);
    expect(b.publisher.busy).toBe(2);
    expect(a.row(target)).toMatchObject({ status: 'scheduled', attempts: 0, lease_owner: null });

    // The blockers' posts end on both at the same moment; both then try to claim the target.
    await a.clock.advance(1_000);
    const owner = a.row(target).lease_owner;
    expect(a.row(target)).toMatchObject({ status: 'publishing', attempts: 1 });
    expect(['host-a/101/aaaa', 'host-b/202/bbbb']).toContain(owner);
    expect([a.publisher.busy, b.publisher.busy].sort()).toEqual([0, 1]);
    await a.clock.advance(1_000);
    await a.settle();
    await b.settle();

    const calls = [...a.adapter('twitter').calls, ...b.adapter('twitter').calls].filter((c) => c.targetId === target);
    expect(calls).toHaveLength(1);
    expect(ledger.entries().filter((e) => e.targetId === target)).toHaveLength(1);
    expect(a.row(target)).toMatchObject({ status: 'published', attempts: 1, post_id: `test_${target}_1`, lease_owner: null });
    expect(a.attempts(target).map((x) => [x.number, x.outcome])).toEqual([[1, 'published']]);

    const results = [...a.settled, ...b.settled].filter((s) => s.targetId === target).map((s) => s.result);
    expect(results.sort()).toEqual(['published', 'skipped']);
    // The publisher that lost the claim made no call to its adapter.
    const winner = owner === 'host-a/101/aaaa' ? a : b;
    expect(winner.settled.filter((s) => s.targetId === target).map((s) => s.result)).toEqual(['published']);
    const loser = winner === a ? b : a;
    expect(winner.adapter('twitter').calls.filter((c) => c.targetId === target)).toHaveLength(1);
    expect(loser.adapter('twitter').calls.filter((c) => c.targetId === target)).toHaveLength(0);
    expect(a.row(blockerA).status).toBe('published');
    expect(a.row(blockerB).status).toBe('published');
  });
});
