import type { SchedulerOptions } from '../../src/scheduler/scheduler';
import { afterEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/scheduler/scheduler';
import { openTestDatabase } from '../support/store-dialects';
import { createTargetQueue } from '../../src/store/target-queue';
import { flushMicrotasks, ManualClock } from '../../src/util/clock';
import { insertTarget, seedUser, T0 } from './harness';

/** A scheduler over a fresh store whose onDue records (id, time). */
function setup(opts: Partial<SchedulerOptions> = {}) {
  const clock = new ManualClock(T0);
  const db = openTestDatabase(':memory:');
  seedUser(db, T0);
  const queue = createTargetQueue(db);
  const fired: { id: string; at: number }[] = [];
  // The overdue sweep re-fires targets still `scheduled` after their time; with no publisher
  // claiming them here, it is switched off except where a test looks at it.
  const scheduler = new Scheduler({ queue, clock, onDue: (id) => fired.push({ id, at: clock.now() }), sweepMs: 1e12, ...opts });
  const add = (due: number, status: 'scheduled' | 'pending_approval' = 'scheduled') => insertTarget(db, { due, status });
  const retime = (id: string, due: number) => {
    db.prepare('UPDATE targets SET due_at = ?, next_attempt_at = NULL WHERE id = ?').run(due, id);
    scheduler.targetsChanged([id]);
  };
  const setStatus = (id: string, status: string, due?: number) => {
    db.prepare('UPDATE targets SET status = ?, due_at = COALESCE(?, due_at) WHERE id = ?').run(status, due ?? null, id);
    scheduler.targetsChanged([id]);
  };
  return { clock, db, queue, scheduler, fired, add, retime, setStatus, advance: (ms: number) => clock.advance(ms) };
}

let current: Scheduler | null = null;
afterEach(async () => {
  await current?.stop();
  current = null;
});

async function started(opts: Partial<SchedulerOptions> = {}, before?: (s: ReturnType<typeof setup>) => void) {
  const s = setup(opts);
  before?.(s);
  await s.scheduler.start();
  current = s.scheduler;
  await flushMicrotasks();
  return s;
}

describe('Scheduler', () => {
  it('fires staggered targets at their exact due times, in due order', async () => {
    const ids: string[] = [];
    const s = await started({}, (s) => {
      for (const d of [90_000, 1_500, 1_000, 2_750, 1_500, 1]) ids.push(s.add(T0 + d));
    });
    await s.advance(100_000);
    const expected = ids
      .map((id, i) => ({ id, at: T0 + [90_000, 1_500, 1_000, 2_750, 1_500, 1][i]! }))
      .sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
    expect(s.fired).toEqual(expected);
  });

  it('hands onDueMany the targets due at one moment in one call, in due order, and holds a target given to recheckAt until then', async () => {
    const calls: string[][] = [];
    const ids: string[] = [];
    const s = await started({ onDueMany: (due) => calls.push([...due]) }, (s) => {
      for (const d of [1_000, 500, 1_000, 500]) ids.push(s.add(T0 + d));
    });
    // Two due at each of two moments: one call a moment, with both.
    await s.advance(2_000);
    expect(calls).toEqual([
      [ids[1], ids[3]],
      [ids[0], ids[2]],
    ]);
    expect(s.fired).toEqual([]);
    s.scheduler.recheckAt([ids[0]!], T0 + 5_000);
    await s.advance(2_999);
    expect(calls).toHaveLength(2);
    await s.advance(1);
    expect(calls[2]).toEqual([ids[0]]);
  });

  it('fires nothing before its time', async () => {
    const s = await started({}, (s) => s.add(T0 + 5_000));
    await s.advance(4_999);
    expect(s.fired).toEqual([]);
    await s.advance(1);
    expect(s.fired).toHaveLength(1);
  });

  it('holds only the horizon in memory and loads later targets as time passes', async () => {
    const s = await started({ horizonMs: 60_000, tickMs: 3_600_000 }, (s) => {
      s.add(T0 + 30_000);
      s.add(T0 + 10 * 60_000);
      s.add(T0 + 2 * 86_400_000);
    });
    expect(s.scheduler.status().wheelSize).toBe(1);
    await s.advance(10 * 60_000);
    expect(s.fired.map((f) => f.at)).toEqual([T0 + 30_000, T0 + 10 * 60_000]);
    expect(s.scheduler.status().wheelSize).toBe(0);
    await s.advance(2 * 86_400_000);
    expect(s.fired.map((f) => f.at)).toEqual([T0 + 30_000, T0 + 10 * 60_000, T0 + 2 * 86_400_000]);
  });

  it('never holds more than maxEntries and still fires every target in order', async () => {
    const dues = Array.from({ length: 50 }, (_, i) => T0 + 1_000 + i * 37);
    const s = await started({ maxEntries: 10, batchSize: 4 }, (s) => dues.forEach((d) => s.add(d)));
    let peak = 0;
    for (let t = 0; t < 3_000; t += 10) {
      await s.advance(10);
      peak = Math.max(peak, s.scheduler.status().wheelSize);
    }
    expect(peak).toBeLessThanOrEqual(10);
    expect(s.fired.map((f) => f.at)).toEqual(dues);
  });

  it('moves a target re-timed inside the horizon, earlier or later, and fires it once', async () => {
    let a = '';
    let b = '';
    const s = await started({}, (s) => {
      a = s.add(T0 + 10_000);
      b = s.add(T0 + 20_000);
    });
    s.retime(a, T0 + 30_000);
    s.retime(b, T0 + 5_000);
    await s.advance(60_000);
    expect(s.fired).toEqual([
      { id: b, at: T0 + 5_000 },
      { id: a, at: T0 + 30_000 },
    ]);
  });

  it('lets go of a target re-timed beyond the horizon and fires it at its new time', async () => {
    let a = '';
    const s = await started({ horizonMs: 60_000 }, (s) => (a = s.add(T0 + 10_000)));
    s.retime(a, T0 + 3 * 3_600_000);
    expect(s.scheduler.status().wheelSize).toBe(0);
    await s.advance(3 * 3_600_000 - 1);
    expect(s.fired).toEqual([]);
    await s.advance(1);
    expect(s.fired).toEqual([{ id: a, at: T0 + 3 * 3_600_000 }]);
  });

  it('picks up a far target re-timed into the horizon at once', async () => {
    let a = '';
    const s = await started({ horizonMs: 60_000 }, (s) => (a = s.add(T0 + 5 * 3_600_000)));
    await s.advance(1_000);
    s.retime(a, T0 + 2_000);
    await s.advance(1_000);
    expect(s.fired).toEqual([{ id: a, at: T0 + 2_000 }]);
  });

  it('wakes at once for a target changed to be due now', async () => {
    let a = '';
    const s = await started({}, (s) => (a = s.add(T0 + 50_000)));
    await s.advance(100);
    s.retime(a, T0);
    await flushMicrotasks();
    expect(s.fired).toEqual([{ id: a, at: T0 + 100 }]);
  });

  it('never fires a target cancelled inside or beyond the horizon', async () => {
    let near = '';
    let far = '';
    const s = await started({ horizonMs: 60_000 }, (s) => {
      near = s.add(T0 + 10_000);
      far = s.add(T0 + 3_600_000);
    });
    s.setStatus(near, 'cancelled');
    s.setStatus(far, 'cancelled');
    expect(s.scheduler.status().wheelSize).toBe(0);
    await s.advance(2 * 3_600_000);
    expect(s.fired).toEqual([]);
  });

  it('never fires a target held for approval, and fires it at its time once approved before then', async () => {
    let a = '';
    const s = await started({}, (s) => (a = s.add(T0 + 10_000, 'pending_approval')));
    await s.advance(5_000);
    expect(s.fired).toEqual([]);
    s.setStatus(a, 'scheduled');
    await s.advance(4_999);
    expect(s.fired).toEqual([]);
    await s.advance(1);
    expect(s.fired).toEqual([{ id: a, at: T0 + 10_000 }]);
  });

  it('fires a target approved after its due time at once', async () => {
    let a = '';
    const s = await started({}, (s) => (a = s.add(T0 + 10_000, 'pending_approval')));
    await s.advance(3_600_000);
    expect(s.fired).toEqual([]);
    s.setStatus(a, 'scheduled', T0 + 3_600_000);
    await flushMicrotasks();
    expect(s.fired).toEqual([{ id: a, at: T0 + 3_600_000 }]);
  });

  it('fires overdue targets at start, oldest first, before later ones', async () => {
    const s = await started({}, (s) => {
      s.add(T0 + 1_000);
      s.add(T0 - 60_000);
      s.add(T0 - 3_600_000);
      s.add(T0 - 1);
    });
    await s.advance(2_000);
    expect(s.fired.map((f) => f.at)).toEqual([T0, T0, T0, T0 + 1_000]);
    const dues = s.fired.map((f) => (s.db.prepare('SELECT due_at FROM targets WHERE id = ?').pluck().get(f.id) as number) - T0);
    expect(dues).toEqual([-3_600_000, -60_000, -1, 1_000]);
  });

  it('fires a target at its backoff time rather than its due time', async () => {
    let a = '';
    const s = await started({}, (s) => (a = s.add(T0 - 1_000)));
    await s.advance(0);
    expect(s.fired).toHaveLength(1);
    s.db.prepare('UPDATE targets SET next_attempt_at = ? WHERE id = ?').run(T0 + 45_000, a);
    s.scheduler.targetsChanged([a]);
    await s.advance(44_999);
    expect(s.fired).toHaveLength(1);
    await s.advance(1);
    expect(s.fired[1]).toEqual({ id: a, at: T0 + 45_000 });
  });

  it('finds an overdue target whose change was never announced within a sweep', async () => {
    let a = '';
    const s = await started({ sweepMs: 5_000, sweepGraceMs: 2_000 }, (s) => (a = s.add(T0 + 3_600_000, 'pending_approval')));
    s.db.prepare("UPDATE targets SET status = 'scheduled', due_at = ? WHERE id = ?").run(T0, a);
    await s.advance(5_000);
    expect(s.fired).toEqual([{ id: a, at: T0 + 5_000 }]);
  });

  it('reports its last tick and wheel size, reads stalled while ticks keep failing, and recovers', async () => {
    const s = await started({ tickMs: 1_000, stallTicks: 5, horizonMs: 2_000 });
    s.add(T0 + 600_000);
    await s.advance(2_500);
    expect(s.scheduler.status()).toEqual({ running: true, lastTick: T0 + 2_000, stalled: false, wheelSize: 0 });
    // The store starts failing: ticks stop succeeding, lastTick stays behind.
    const scan = s.queue.scan;
    s.queue.scan = () => {
      throw new Error('disk I/O error');
    };
    await s.advance(10_000);
    const stalled = s.scheduler.status();
    expect(stalled.stalled).toBe(true);
    expect(T0 + 12_500 - (stalled.lastTick as number)).toBeGreaterThan(5_000);
    s.queue.scan = scan;
    await s.advance(1_000);
    expect(s.scheduler.status()).toMatchObject({ running: true, stalled: false });
    expect(s.scheduler.status().lastTick).toBeGreaterThan(T0 + 12_000);
  });

  it('stops dispatching once stopped', async () => {
    const s = await started({}, (s) => s.add(T0 + 1_000));
    await s.scheduler.stop();
    await s.advance(5_000);
    expect(s.fired).toEqual([]);
    expect(s.scheduler.status().running).toBe(false);
  });
});
