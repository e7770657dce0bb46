import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryLedger } from '../support/test-adapter';
import { openTestDatabase } from '../support/store-dialects';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { shareOf } from '../../src/publisher/share';
import { makeWorld, seedUser, T0 } from '../scheduler/harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const USERS = Array.from({ length: 8 }, (_, i) => `usr_share_${i}`);

/** Two daemons' schedulers and publishers over one database, each told it is `index` of 2. */
function twoDaemons() {
  const dir = mkdtempSync(join(tmpdir(), 'sp-shares-'));
  const path = join(dir, 'socialpub.db');
  const clock = new ManualClock(T0);
  const ledger = new MemoryLedger();
  const dbA = openTestDatabase(path);
  const dbB = openTestDatabase(path);
  for (const u of USERS) seedUser(dbA, T0, u);
  const common = { clock, ledger, latencyMs: [100, 100] as [number, number] };
  const a = makeWorld({ ...common, db: dbA, publisher: { owner: 'host-a/101/aaaa', share: () => ({ index: 0, of: 2 }), shareGraceMs: 1_000 } });
  const b = makeWorld({ ...common, db: dbB, publisher: { owner: 'host-b/202/bbbb', share: () => ({ index: 1, of: 2 }), shareGraceMs: 1_000 } });
  // Claims asked for and got, per daemon: a claim that comes back empty was lost to the other.
  const claims = { a: { asked: 0, got: 0 }, b: { asked: 0, got: 0 } };
  for (const [w, c] of [
    [a, claims.a],
    [b, claims.b],
  ] as const) {
    const claimMany = w.queue.claimMany.bind(w.queue);
    w.queue.claimMany = (ids, ...rest) => {
      const out = claimMany(ids, ...rest);
      c.asked += ids.length;
      c.got += out.filter((x) => x !== null).length;
      return out;
    };
  }
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => void dbA.close());
  cleanups.push(() => void dbB.close());
  cleanups.push(() => a.stop());
  cleanups.push(() => b.stop());
  return { a, b, ledger, claims };
}

describe('shares of the due targets among daemons', () => {
  it('has each daemon claim only its share, so no claim comes back empty, and each target goes out once', async () => {
    const { a, b, ledger, claims } = twoDaemons();
    const ids = USERS.flatMap((userId) => [a.add({ due: T0 + 500, userId }), a.add({ due: T0 + 500, userId, platform: 'threads' })]);
    const expected = USERS.flatMap((userId) =>
      (['twitter', 'threads'] as const).map((platform) => (shareOf({ userId, platform, connectionId: null }, 2) === 0 ? 'host-a/101/aaaa' : 'host-b/202/bbbb')),
    );
    // The hash spreads these 16 across both daemons (else the test proves nothing).
    expect(new Set(expected).size).toBe(2);
    await a.start();
    await b.start();
    await a.clock.advance(500);
    await flushMicrotasks();
    // Both wheels fired all 16; each claimed only its own, before the other's second look.
    expect(ids.map((id) => a.row(id).lease_owner)).toEqual(expected);
    expect(claims.a.asked + claims.b.asked).toBe(16);
    expect(claims.a.got + claims.b.got).toBe(16);
    await a.clock.advance(100);
    await a.settle();
    await b.settle();
    expect(ids.map((id) => a.row(id).status)).toEqual(ids.map(() => 'published'));
    // The second look (at the grace's end) finds them published: nothing more is claimed.
    await a.clock.advance(1_000);
    await a.settle();
    await b.settle();
    expect(claims.a.asked + claims.b.asked).toBe(16);
    expect(ledger.entries().map((e) => e.targetId).sort()).toEqual([...ids].sort());
  });

  it("takes another daemon's due target after the grace when that daemon does not", async () => {
    const { a, ledger } = twoDaemons();
    // Only a runs (b died): a target of b's share waits the grace, then a publishes it.
    const userId = USERS.find((u) => shareOf({ userId: u, platform: 'twitter', connectionId: null }, 2) === 1) as string;
    const id = a.add({ due: T0 + 500, userId });
    await a.start();
    await a.clock.advance(500);
    await a.settle();
    await a.clock.advance(999);
    await a.settle();
    expect(a.row(id)).toMatchObject({ status: 'scheduled', attempts: 0 });
    await a.clock.advance(1);
    await flushMicrotasks();
    expect(a.row(id)).toMatchObject({ status: 'publishing', attempts: 1, lease_owner: 'host-a/101/aaaa' });
    await a.clock.advance(100);
    await a.settle();
    expect(a.row(id).status).toBe('published');
    expect(ledger.entries().filter((e) => e.targetId === id)).toHaveLength(1);
  });
});
