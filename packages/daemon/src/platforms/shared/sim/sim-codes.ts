import type { SandboxStore } from '../../../store/sandbox-store';

/**
 * A simulator's single-use, expiring codes (OAuth authorization codes): handed out by its
 * consent page, exchanged once at its token endpoint. Kept in the simulators' store
 * (sandbox_codes) and read from it on each exchange, so a code handed out by one daemon's
 * simulators is exchanged at another's over one PostgreSQL database, and two exchanges of
 * one code, wherever they land, give one token (`take`). Without a store: in memory.
 */
export interface SimCodes<V extends { expiresAt: number }> {
  /** Hands out `code` for `value` (until `value.expiresAt`); `now` sweeps the expired ones. */
  issue(code: string, value: V, now: number): void;
  /** The code's value and whether it was exchanged already; undefined when unknown (or swept after expiring). */
  get(code: string): (V & { used: boolean }) | undefined;
  /**
   * Marks the code exchanged: true for the one call that did it (not used before, not
   * expired at `now`), false for every other, also one racing it on another daemon.
   */
  take(code: string, now: number): boolean;
}

/** The codes of one kind of one simulator; `atomically` wraps each write as the simulator's other writes are (SimState.atomically). */
export function simCodes<V extends { expiresAt: number }>(store: SandboxStore | null, simulator: string, kind: string, atomically: <T>(fn: () => T) => T): SimCodes<V> {
  if (!store) {
    const held = new Map<string, { value: V; used: boolean }>();
    return {
      issue(code, value, now) {
        for (const [k, c] of held) if (c.value.expiresAt <= now) held.delete(k);
        held.set(code, { value, used: false });
      },
      get(code) {
        const c = held.get(code);
        return c ? { ...c.value, used: c.used } : undefined;
      },
      take(code, now) {
        const c = held.get(code);
        if (!c || c.used || c.value.expiresAt <= now) return false;
        c.used = true;
        return true;
      },
    };
  }
  const codes = store.codes;
  return {
    issue: (code, value, now) => atomically(() => codes.issue(simulator, kind, code, value, value.expiresAt, now)),
    get(code) {
      const c = codes.get(simulator, kind, code);
      return c ? { ...(c.value as V), used: c.used } : undefined;
    },
    take: (code, now) => atomically(() => codes.take(simulator, kind, code, now)),
  };
}
