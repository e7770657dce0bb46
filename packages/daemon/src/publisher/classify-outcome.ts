import type { Credentials } from '../platforms/adapter';
import type { AttemptEnd, ClaimedTarget, StoredError } from '../store/target-queue';
import type { AttemptScope } from './task';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../platforms/errors';
import { errorMessage, platformCodeOf } from './attempt-ends';
import { retryDelay } from './backoff';

/** How far a publish attempt got before it threw: setup (connection), media resolution, or the adapter. */
export type AttemptPhase = 'setup' | 'media' | 'adapter';

/**
 * Turns a publish attempt's error into its outcome. A rate limit also pauses what it applies to (the connection, or the platform's app).
 * Only errors that prove nothing was sent are retried; anything else thrown once the
 * adapter ran goes to needs_review.
 */
export function classifyOutcome(
  scope: Pick<AttemptScope, 'o' | 'pause'>,
  t: ClaimedTarget,
  err: unknown,
  phase: AttemptPhase,
  credentials: Credentials | null,
): AttemptEnd {
  const { o } = scope;
  const now = o.clock.now();
  const codeFor = (fallback: StoredError['code']): StoredError['code'] => (phase === 'media' ? 'media_unavailable' : fallback);
  const stored = (code: StoredError['code']): StoredError => ({ code, message: errorMessage(err), platformCode: platformCodeOf(err) });
  if (err instanceof RateLimitedError) {
    scope.pause(t, err, now);
    return {
      status: 'scheduled',
      nextAttemptAt: Math.max(err.until, now),
      outcome: 'retry',
      attemptErrorCode: 'rate_limited',
      error: stored('platform_error'),
    };
  }
  if (err instanceof RetryableError || (!(err instanceof PublishError) && phase !== 'adapter')) {
    // Nothing was sent (the adapter said so, or it never ran): safe to try again later.
    const failures = o.queue.retryFailures(t.id) + 1;
    const code = codeFor('platform_error');
    if (failures >= o.maxAttempts) {
      return {
        status: 'failed',
        error: { code: 'attempts_exhausted', message: `gave up after ${failures} attempts: ${errorMessage(err)}`, platformCode: platformCodeOf(err) },
      };
    }
    const after = err instanceof RetryableError ? (err.after ?? 0) : 0;
    const delay = Math.max(after, retryDelay(failures, o.backoff, o.random));
    return { status: 'scheduled', nextAttemptAt: now + delay, outcome: 'retry', attemptErrorCode: code, error: stored(code) };
  }
  if (err instanceof PermanentError) return { status: 'failed', error: stored(codeFor('platform_error')) };
  if (err instanceof AuthExpiredError) {
    if (credentials) void Promise.resolve(o.connections.markExpired(credentials.connectionId, errorMessage(err))).catch(() => {});
    return { status: 'failed', error: stored('auth_expired') };
  }
  if (err instanceof OutcomeUnknownError) return { status: 'needs_review', error: stored('outcome_unknown') };
  // Anything else thrown once the adapter ran may have come after the post was made.
  return {
    status: 'needs_review',
    error: { code: 'outcome_unknown', message: `unexpected error while publishing: ${errorMessage(err)}`, platformCode: platformCodeOf(err) },
  };
}
