/**
 * PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001): the
 * transaction was rolled back whole, so it may simply be run again. Several daemons meet
 * them when a request's transaction and another daemon's publisher batch update the same
 * rows (a job and its targets) in different orders. SQLite has one writer and never does.
 */
export function isTransientConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** Tries of a transaction that met a deadlock or serialization failure before its error is answered. */
export const CONFLICT_TRIES = 5;

/** A short random wait before the next try, growing with the tries, so the two sides do not collide again in step. */
export const conflictBackoffMs = (round: number): number => Math.floor(Math.random() * 20 * round) + 1;
