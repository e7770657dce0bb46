import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/util/clock';
import { startRoundLoop } from '../../src/util/round-loop';

/** Lets the loop's promises run (no time passes on the manual clock). */
const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('a loop of rounds', () => {
  it('runs a round, sleeps its interval, and a kick while it sleeps starts the next round at once', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const stop = new AbortController();
    const at: number[] = [];
    const loop = startRoundLoop({ clock, intervalMs: 30_000, signal: stop.signal, round: async () => void at.push(clock.now()), onError: () => undefined });
    await settle();
    expect(at).toHaveLength(1);
    await clock.advance(30_000);
    await settle();
    expect(at.map((t) => t - at[0]!)).toEqual([0, 30_000]);
    await clock.advance(1_000);
    loop.kick();
    await settle();
    expect(at.map((t) => t - at[0]!)).toEqual([0, 30_000, 31_000]);
    stop.abort();
    await loop.done;
  });

  it('starts the next round right after the running one when kicked during it, not an interval later', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const stop = new AbortController();
    let rounds = 0;
    let release: () => void = () => undefined;
    const loop = startRoundLoop({
      clock,
      intervalMs: 30_000,
      signal: stop.signal,
      round: async () => {
        rounds++;
        // The first round is long (a slow network read): it waits to be released.
        if (rounds === 1) await new Promise<void>((resolve) => (release = resolve));
      },
      onError: () => undefined,
    });
    await settle();
    expect(rounds).toBe(1);
    // Something is queued while the round runs: there is no sleep yet to cut short.
    loop.kick();
    release();
    await settle();
    expect(rounds).toBe(2);
    // Not kicked during the second round: the loop sleeps its interval.
    await settle();
    expect(rounds).toBe(2);
    stop.abort();
    await loop.done;
  });

  it('reports a round that throws and goes on; ends at the end of its round once stopped', async () => {
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const stop = new AbortController();
    const errors: string[] = [];
    let rounds = 0;
    const loop = startRoundLoop({
      clock,
      intervalMs: 10_000,
      signal: stop.signal,
      round: async () => {
        rounds++;
        if (rounds === 1) throw new Error('the network did not answer');
      },
      onError: (err) => errors.push((err as Error).message),
    });
    await settle();
    await clock.advance(10_000);
    await settle();
    expect([rounds, errors]).toEqual([2, ['the network did not answer']]);
    stop.abort();
    await loop.done;
    await clock.advance(60_000);
    await settle();
    expect(rounds).toBe(2);
  });
});
