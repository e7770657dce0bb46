import type { SandboxStore, SandboxWindow, SandboxWindowCall } from '../../../store/sandbox-store';

/** One call against a rate window: see SandboxWindowCall (`cost` 1 when absent). */
export type SimWindowCall = Omit<SandboxWindowCall, 'cost'> & { cost?: number };

/**
 * A simulator's rate windows (X's 15-minute windows per user and endpoint, Mastodon's 5
 * minutes, LinkedIn's day, ...): a call is counted when it fits the limit, and refused
 * without counting when it does not. On one process (SQLite) they are entries of a
 * persisted map, so a restart carries on; when several processes' simulators share the
 * store (PostgreSQL), each call is one upsert in the database (sandbox_windows), so two
 * daemons counting the same window never let through more than its limit together.
 */
export interface SimWindows {
  /** Counts a call at `key`; the window after it, `allowed` false when it did not fit (nothing counted). */
  take(key: string, call: SimWindowCall): SandboxWindow;
  /** Counts one call against several windows, all or none: the windows after it, in order; `allowed` on each says whether all fitted. */
  takeAll(calls: ReadonlyArray<readonly [key: string, call: SimWindowCall]>): SandboxWindow[];
  /** What the window at `key` has used at `now` (0 when none runs). */
  used(key: string, now: number): number;
}

/** A window as one process keeps it (SimState map entries). */
export interface HeldWindow {
  start: number;
  end: number;
  used: number;
}

/** Where one process keeps its windows (a SimState map). */
export interface HeldWindows {
  get(key: string): HeldWindow | undefined;
  set(key: string, value: HeldWindow): unknown;
}

/**
 * Rate windows kept in `map` (one process), or, when `shared` is given, in its store's
 * sandbox_windows (rows `<prefix><key>` of its simulator).
 */
export function simWindows(map: HeldWindows, shared: { store: SandboxStore; simulator: string; prefix: string } | null = null): SimWindows {
  if (shared) {
    const { store, simulator, prefix } = shared;
    const windows = store.windows;
    const one = (key: string, call: SimWindowCall) => windows.take(simulator, prefix + key, { ...call, cost: call.cost ?? 1 });
    return {
      take: (key, call) => store.apart(() => one(key, call)),
      used: (key, now) => windows.used(simulator, prefix + key, now),
      takeAll: (calls) =>
        // One short transaction, the windows always in the caller's order (no two processes lock them crosswise).
        store.apart(() =>
          store.transaction(() => {
            const taken: SandboxWindow[] = [];
            for (const [key, call] of calls) {
              const w = one(key, call);
              taken.push(w);
              if (!w.allowed) break;
            }
            if (taken.every((w) => w.allowed)) return taken;
            // One did not fit: what the others were charged is given back, and each is told no.
            return calls.map(([key, call], i) => {
              const w = taken[i];
              if (!w) return { ...one(key, { ...call, cost: 0 }), allowed: false };
              if (w.allowed) {
                const cost = call.cost ?? 1;
                windows.giveBack(simulator, prefix + key, w.start, cost);
                return { ...w, used: w.used - cost, allowed: false };
              }
              return w;
            });
          }),
        ),
    };
  }
  const current = (key: string, call: SimWindowCall) => {
    const w = map.get(key);
    return w && call.now < w.end ? w : { start: call.start, end: call.end, used: 0 };
  };
  const take = (key: string, call: SimWindowCall): SandboxWindow => {
    const w = current(key, call);
    const cost = call.cost ?? 1;
    const allowed = w.used + cost <= call.limit;
    const after = allowed ? { ...w, used: w.used + cost } : w;
    if (after !== map.get(key)) map.set(key, after);
    return { ...after, allowed };
  };
  return {
    take,
    used(key, now) {
      const w = map.get(key);
      return w && now < w.end ? w.used : 0;
    },
    takeAll(calls) {
      const fit = calls.every(([key, call]) => current(key, call).used + (call.cost ?? 1) <= call.limit);
      if (fit) return calls.map(([key, call]) => take(key, call));
      return calls.map(([key, call]) => ({ ...current(key, call), allowed: false }));
    },
  };
}
