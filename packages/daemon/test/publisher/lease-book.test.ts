import { describe, expect, it } from 'vitest';
import { LeaseBook } from '../../src/publisher/lease-keeper';
import { ManualClock } from '../../src/util/clock';

describe('LeaseBook', () => {
  it('renews every held lease each third of its length with one timer, marks a lease another owner took as lost, and keeps no timer once none is held', async () => {
    const clock = new ManualClock(0);
    const renewed: [string, number][] = [];
    const taken = new Set<string>();
    const book = new LeaseBook({
      clock,
      owner: 'me',
      leaseMs: 30_000,
      queue: {
        renewLease: (id, owner, until) => {
          expect(owner).toBe('me');
          if (taken.has(id)) return false;
          renewed.push([id, until]);
          return true;
        },
      },
    });
    const a = book.hold('a', new AbortController().signal);
    await clock.advance(5_000);
    const b = book.hold('b', new AbortController().signal);
    const given = new AbortController();
    const c = book.hold('c', given.signal);
    expect(clock.pending).toBe(1);
    await clock.advance(5_000);
    // One round at 10 s renews all three (b and c early: never later than a third of the lease).
    expect(renewed).toEqual([
      ['a', 40_000],
      ['b', 40_000],
      ['c', 40_000],
    ]);
    taken.add('b');
    // An attempt given up at shutdown keeps its lease as it is, for recovery; it is not "lost".
    given.abort();
    await clock.advance(10_000);
    expect(renewed.slice(3)).toEqual([['a', 50_000]]);
    expect([a.lost(), b.lost(), c.lost()]).toEqual([false, true, false]);
    a.stop();
    b.stop();
    c.stop();
    expect(clock.pending).toBe(0);
    await clock.advance(30_000);
    expect(renewed).toHaveLength(4);
    // Holding again starts the loop again.
    book.hold('d', new AbortController().signal);
    await clock.advance(10_000);
    expect(renewed.slice(4)).toEqual([['d', 90_000]]);
  });
});
