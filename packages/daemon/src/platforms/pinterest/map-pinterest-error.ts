import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { header } from '../shared/response-header';
import { PinterestApiError, PinterestTransportError } from './pinterest-client';

/**
 * When a rate-limited call may be made again: `Retry-After` (seconds) if sent, else
 * `x-ratelimit-reset` (seconds until the window resets), else a minute.
 */
export function rateLimitedUntil(headers: Record<string, string | string[] | undefined>, now: number): number {
  for (const name of ['retry-after', 'x-ratelimit-reset']) {
    const v = Number(header(headers, name));
    if (Number.isFinite(v) && v > 0) return now + v * 1000;
  }
  return now + 60_000;
}

/**
 * Turns a Pinterest failure into the publisher's typed errors, keeping Pinterest's own
 * message. `creates` marks the call that makes the pin (POST /v5/pins): a failure there
 * after the request left means the pin may exist, so it is never plainly retried (the
 * adapter lists the board's pins first).
 */
export function mapPinterestError(err: unknown, options: { now: number; creates: boolean; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof PinterestTransportError) {
    if (options.creates && err.sent) return new OutcomeUnknownError(`Pinterest did not answer ${options.step}; the pin may exist: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
    return new RetryableError(`${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  }
  if (!(err instanceof PinterestApiError)) return new RetryableError(`${options.step}: ${(err as Error).message}`, { cause: err });
  const code = err.code !== null ? String(err.code) : String(err.status);
  const msg = `Pinterest ${options.step} failed (${err.status}${err.code !== null ? ` code ${err.code}` : ''}): ${err.message}`;
  if (err.status === 429) {
    return new RateLimitedError(`Pinterest rate limit reached: ${err.message}`, { until: rateLimitedUntil(err.headers, options.now), appliesTo: 'connection', platformCode: code, cause: err });
  }
  if (err.status === 401) return new AuthExpiredError(`Pinterest refused the access token (${err.message}); reconnect with \`socialpub connect pinterest\``, { platformCode: code, cause: err });
  if (err.status >= 500 || err.status === 408) {
    if (options.creates) return new OutcomeUnknownError(`${msg}; the pin may exist`, { platformCode: code, cause: err });
    return new RetryableError(msg, { platformCode: code, cause: err });
  }
  return new PermanentError(msg, { platformCode: code, cause: err });
}
