/** Capped exponential backoff with jitter, for retryable publishing failures. */
export interface BackoffOptions {
  /** Wait after the first failure, before jitter (default 30 s). */
  baseMs?: number;
  /** The longest wait, before jitter (default 1 hour). */
  capMs?: number;
}

export const DEFAULT_BACKOFF: Required<BackoffOptions> = { baseMs: 30_000, capMs: 60 * 60_000 };

/**
 * The wait before retry number `failures` (1 after the first failure): base·2^(failures-1),
 * capped, then "equal jitter" — somewhere in its upper half — so that targets that failed
 * together (a platform outage) do not all come back in the same millisecond, while the
 * wait never drops below half the step. `random` returns [0, 1).
 */
export function retryDelay(failures: number, opts: BackoffOptions = {}, random: () => number = Math.random): number {
  const { baseMs, capMs } = { ...DEFAULT_BACKOFF, ...opts };
  const step = Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1));
  return Math.round(step / 2 + random() * (step / 2));
}
