import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { BlueskyApiError, BlueskyTransportError } from './xrpc-client';
import { header } from '../shared/response-header';

/** Epoch ms from `ratelimit-reset` (epoch seconds), or null. */
export function rateLimitReset(headers: Record<string, string | string[] | undefined>): number | null {
  const v = Number(header(headers, 'ratelimit-reset'));
  return Number.isFinite(v) && v > 0 ? v * 1000 : null;
}

/** The session is gone: the refresh and the app password both failed, or the token was refused after a renewal. */
export const AUTH_ERRORS = new Set(['AuthenticationRequired', 'ExpiredToken', 'InvalidToken', 'AccountTakedown', 'AccountDeactivated']);

/**
 * Turns a PDS or video-service failure into the publisher's typed errors
 * (docs/reference/platforms.md, Bluesky: errors). `creates` marks a call that writes a
 * post (createRecord): a failure after the request left may have written it, so it is an
 * unknown outcome (the adapter then asks getRecord at its own record key).
 */
export function mapBlueskyError(err: unknown, options: { now: number; creates: boolean; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof BlueskyTransportError) {
    if (options.creates && err.sent) return new OutcomeUnknownError(`Bluesky did not answer ${options.step}; the post may exist: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
    return new RetryableError(`${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  }
  if (!(err instanceof BlueskyApiError)) return new RetryableError(`${options.step}: ${(err as Error).message}`, { cause: err });
  const code = err.error ?? String(err.status);
  const msg = `Bluesky ${options.step} failed (${err.status} ${code}): ${err.message}`;
  if (err.status === 429 || err.error === 'RateLimitExceeded') {
    return new RateLimitedError(`Bluesky rate limit reached: ${err.message}`, { until: rateLimitReset(err.headers) ?? options.now + 5 * 60_000, platformCode: 'RateLimitExceeded', cause: err });
  }
  if (err.status === 401 || (err.error !== null && AUTH_ERRORS.has(err.error))) {
    return new AuthExpiredError(`Bluesky refused the session (${code}: ${err.message}); reconnect with \`socialpub connect bluesky\``, { platformCode: code, cause: err });
  }
  if (err.status >= 500 || err.status === 408) {
    if (options.creates) return new OutcomeUnknownError(`${msg}; the post may exist`, { platformCode: code, cause: err });
    return new RetryableError(msg, { platformCode: code, cause: err });
  }
  return new PermanentError(msg, { platformCode: code, cause: err });
}
