import type { World } from '../scheduler/harness';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublisherOptions } from '../../src/publisher/publisher';
import { LANE_RETRY_MS } from '../../src/publisher/publish-attempt';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { MemoryLedger } from '../support/test-adapter';
import { openTestDatabase } from '../support/store-dialects';
import { makeWorld, seedUser, T0 } from '../scheduler/harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * Two publishers, each on its own connection to one PostgreSQL schema (as two daemons),
 * sharing a clock and the platform's ledger; every post takes a second. Owners on other
 * hosts, so neither takes the other for a dead process.
 */
function twoDaemons(publisher: Partial<PublisherOptions>): { a: World; b: World; ledger: MemoryLedger } {
  const dir = mkdtempSync(join(tmpdir(), 'sp-shared-lanes-'));
  const path = join(dir, 'socialpub.db');
  const clock = new ManualClock(T0);
  const ledger = new MemoryLedger();
  const dbA = openTestDatabase(path);
  const dbB = openTestDatabase(path);
  seedUser(dbA, T0);
  const common = { clock, ledger, latencyMs: [1_000, 1_000] as [number, number] };
  const a = makeWorld({ ...common, db: dbA, publisher: { owner: 'host-a/101/aaaa', ...publisher } });
  const b = makeWorld({ ...common, db: dbB, publisher: { owner: 'host-b/202/bbbb', ...publisher } });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => void dbA.close());
  cleanups.push(() => void dbB.close());
  cleanups.push(() => a.stop());
  cleanups.push(() => b.stop());
  return { a, b, ledger };
}

const inFlight = (w: World) => Number(w.db.prepare("SELECT count(*) FROM targets WHERE status = 'publishing'").pluck().get());

describe('a connection shared by two daemons over one PostgreSQL database', () => {
  it('never has more targets in flight than its cap, across both daemons, and each target goes out once', async () => {
    const { a, b, ledger } = twoDaemons({ connectionConcurrency: 2 });
    const ids = Array.from({ length: 6 }, (_, i) => a.add({ due: T0, caption: `post ${i}` }));
    a.publisher.start();
    b.publisher.start();
    // Each daemon's wheel fires every due target (as LISTEN/NOTIFY puts them in both).
    for (const id of ids) {
      a.publisher.dispatch(id);
      b.publisher.dispatch(id);
    }
    await flushMicrotasks(12);
    // Each daemon's own gate admits two; the database lets two in flight in all.
    expect(inFlight(a)).toBe(2);
    const seen: number[] = [];
    for (let i = 0; i < 40 && ledger.entries().length < 6; i++) {
      await a.clock.advance(LANE_RETRY_MS);
      await flushMicrotasks(12);
      seen.push(inFlight(a));
    }
    expect(Math.max(...seen)).toBe(2);
    expect(ids.map((id) => a.row(id).status)).toEqual(ids.map(() => 'published'));
    expect(ledger.entries()).toHaveLength(6);
    const calls = [...a.adapter('twitter').calls, ...b.adapter('twitter').calls].map((c) => c.targetId).sort();
    expect(calls).toEqual([...ids].sort());
    for (const id of ids) expect(a.attempts(id).map((x) => x.outcome)).toEqual(['published']);
  });

  it("holds a connection at once when the other daemon records the platform's limit, not at its next sweep", async () => {
    const { a, b } = twoDaemons({ connectionConcurrency: 1 });
    const reset = T0 + 15 * 60_000;
    const first = a.add({ due: T0 });
    const second = a.add({ due: T0 });
    a.adapter('twitter').inject({ kind: 'rate_limited', until: reset, platformCode: '429' }, { targetId: first });
    a.publisher.start();
    b.publisher.start();
    a.publisher.dispatch(first);
    await flushMicrotasks(12);
    await a.clock.advance(1_000);
    await a.settle();
    expect(a.row(first)).toMatchObject({ status: 'scheduled', next_attempt_at: reset });
    // B read the pauses when it started, before A's; its sweep (every 5 s) has not run.
    b.publisher.dispatch(second);
    await flushMicrotasks(12);
    await a.clock.advance(1_000);
    await b.settle();
    expect(b.row(second)).toMatchObject({ status: 'scheduled', next_attempt_at: reset, attempts: 0 });
    expect(b.adapter('twitter').calls).toHaveLength(0);
    expect(b.settled.map((s) => [s.targetId, s.result])).toEqual([[second, 'scheduled']]);
  });
});
