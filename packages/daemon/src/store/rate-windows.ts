import type { DB } from './database';

export interface WindowTake {
  /** True when the request fits in the window (and was counted). */
  allowed: boolean;
  /** Requests counted in the window, this one included when allowed. */
  count: number;
  /** Epoch ms when the window ends. */
  resetAt: number;
}

export type RateWindowsRepository = ReturnType<typeof createRateWindowsRepository>;

/**
 * Fixed-window counters in SQLite, so a restart keeps them. One statement both checks and
 * counts: the upsert only increments while the count is under the limit, so refused
 * requests do not extend a client's wait.
 */
export function createRateWindowsRepository(db: DB) {
  const take = db.prepare<[{ scope: string; cls: string; start: number; limit: number }], { count: number }>(
    `INSERT INTO rate_windows (scope, class, window_start, count) VALUES (@scope, @cls, @start, 1)
     ON CONFLICT (scope, class, window_start) DO UPDATE SET count = rate_windows.count + 1 WHERE rate_windows.count < @limit
     RETURNING count`,
  );
  const peek = db.prepare<[string, string, number], { count: number }>(
    'SELECT count FROM rate_windows WHERE scope = ? AND class = ? AND window_start = ?',
  );
  const prune = db.prepare('DELETE FROM rate_windows WHERE class = ? AND window_start < ?');

  const windowOf = (now: number, windowMs: number) => Math.floor(now / windowMs) * windowMs;

  return {
    /** Counts one request against `limit` per `windowMs`. */
    take(scope: string, cls: string, limit: number, windowMs: number, now: number): WindowTake {
      const start = windowOf(now, windowMs);
      const row = limit > 0 ? take.get({ scope, cls, start, limit }) : undefined;
      if (row) return { allowed: true, count: row.count, resetAt: start + windowMs };
      return { allowed: false, count: peek.get(scope, cls, start)?.count ?? 0, resetAt: start + windowMs };
    },
    /** The current count without counting (for checks before the outcome is known). */
    peek(scope: string, cls: string, windowMs: number, now: number): { count: number; resetAt: number } {
      const start = windowOf(now, windowMs);
      return { count: peek.get(scope, cls, start)?.count ?? 0, resetAt: start + windowMs };
    },
    /** Drops windows of `cls` that ended before `now`. */
    prune(cls: string, windowMs: number, now: number): number {
      return prune.run(cls, windowOf(now, windowMs)).changes;
    },
  };
}
