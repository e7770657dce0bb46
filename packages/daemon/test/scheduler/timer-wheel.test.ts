import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TimerWheel } from '../../src/scheduler/timer-wheel';

const START = Date.UTC(2026, 11, 25, 9, 0, 0) + 123;

describe('TimerWheel', () => {
  it('fires each id at its exact millisecond, in due order, across every level', () => {
    const w = new TimerWheel(START);
    const offsets = [1, 2, 255, 256, 257, 1000, 16_383, 16_384, 70_000, 1_048_576 + 5, 3 * 3_600_000, 40 * 3_600_000];
    offsets.forEach((d, i) => w.add(`t${i}`, START + d));
    const fired: [string, number][] = [];
    let now = START;
    while (w.size > 0) {
      const next = w.nextWake();
      expect(next).not.toBeNull();
      now = Math.max(now + 1, next as number);
      for (const id of w.advance(now)) fired.push([id, now]);
    }
    expect(fired).toEqual(offsets.map((d, i) => [`t${i}`, START + d]));
  });

  it('fires overdue ids at once, oldest first', () => {
    const w = new TimerWheel(START);
    w.add('late', START - 10);
    w.add('later', START - 500);
    w.add('now', START);
    expect(w.advance(START)).toEqual(['later', 'late', 'now']);
    expect(w.size).toBe(0);
  });

  it('moves a re-added id to its new time and forgets a removed one', () => {
    const w = new TimerWheel(START);
    w.add('a', START + 100);
    w.add('b', START + 200);
    w.add('a', START + 300_000);
    w.remove('b');
    expect(w.advance(START + 299_999)).toEqual([]);
    expect(w.advance(START + 300_000)).toEqual(['a']);
    expect(w.size).toBe(0);
  });

  it('skips a jump of days without walking every millisecond', () => {
    const w = new TimerWheel(START);
    w.add('far', START + 5 * 86_400_000);
    const t = performance.now();
    expect(w.advance(START + 6 * 86_400_000)).toEqual(['far']);
    expect(performance.now() - t).toBeLessThan(200);
  });

  it('agrees with a sorted list under random adds, removes and advances', () => {
    type Op = { kind: 'add'; id: number; delta: number } | { kind: 'remove'; id: number } | { kind: 'advance'; by: number };
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 30 }), delta: fc.integer({ min: -50, max: 5_000_000 }) }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('advance' as const), by: fc.integer({ min: 0, max: 2_000_000 }) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops: Op[]) => {
        const w = new TimerWheel(START);
        const model = new Map<string, number>();
        let now = START;
        const check = (to: number) => {
          const fired = w.advance(to);
          const due = [...model.entries()].filter(([, at]) => at <= to).sort((a, b) => a[1] - b[1]);
          expect(fired.map((id) => model.get(id))).toEqual(due.map(([, at]) => at));
          expect(new Set(fired)).toEqual(new Set(due.map(([id]) => id)));
          for (const [id] of due) model.delete(id);
        };
        for (const o of ops) {
          if (o.kind === 'add') {
            model.set(`t${o.id}`, now + o.delta);
            w.add(`t${o.id}`, now + o.delta);
          } else if (o.kind === 'remove') {
            model.delete(`t${o.id}`);
            w.remove(`t${o.id}`);
          } else {
            now += o.by;
            check(now);
          }
          expect(w.size).toBe(model.size);
        }
        check(now + 10_000_000);
        expect(w.size).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});
