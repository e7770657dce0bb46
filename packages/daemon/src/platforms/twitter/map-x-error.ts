import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { XApiError, XTransportError } from './x-client';
import { header } from '../shared/response-header';

const DUPLICATE = /duplicate content|not allowed to create a Tweet with duplicate|duplicate-rules/i;
const USAGE_CAP = /usage-capped|UsageCapExceeded|usage cap/i;

/** Epoch ms from `x-rate-limit-reset` (epoch seconds), or null. */
export function rateLimitReset(headers: Record<string, string | string[] | undefined>): number | null {
  const v = Number(header(headers, 'x-rate-limit-reset'));
  return Number.isFinite(v) && v > 0 ? v * 1000 : null;
}

/**
 * Turns an X failure into the publisher's typed errors (docs/reference/platforms.md §3.6), keeping X's
 * own message. `creates` marks the call that publishes (POST /2/tweets): a failure there
 * after the request left means the post may exist, so it is never plainly retried.
 */
export function mapXError(err: unknown, options: { now: number; creates: boolean; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof XTransportError) {
    if (options.creates && err.sent) return new OutcomeUnknownError(`X did not answer ${options.step}; the post may exist: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
    return new RetryableError(`${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  }
  if (!(err instanceof XApiError)) return new RetryableError(`${options.step}: ${(err as Error).message}`, { cause: err });
  const msg = `X ${options.step} failed (${err.status}): ${err.message}`;
  const text = `${err.message} ${err.problemType ?? ''} ${JSON.stringify(err.body ?? '')}`;
  if (err.status === 429 || USAGE_CAP.test(text)) {
    const reset = rateLimitReset(err.headers);
    if (USAGE_CAP.test(text)) {
      return new RateLimitedError(`X usage cap reached (plan cap or pay-per-use credits exhausted): ${err.message}`, {
        until: reset ?? options.now + 24 * 3600_000,
        // The plan's cap (or pay-per-use credits) is the project's, shared by every account.
        appliesTo: 'app',
        platformCode: 'usage-capped',
        cause: err,
      });
    }
    return new RateLimitedError(`X rate limit reached: ${err.message}`, { until: reset ?? options.now + 15 * 60_000, platformCode: 'rate-limit-exceeded', cause: err });
  }
  if (err.status === 401) return new AuthExpiredError(`X refused the credentials (${err.message}); reconnect with \`socialpub connect twitter\``, { platformCode: 'unauthorized', cause: err });
  if (err.status === 403 && DUPLICATE.test(text)) {
    return new PermanentError(`X refused the post as duplicate content (an identical post already exists): ${err.message}`, { platformCode: 'duplicate-content', cause: err });
  }
  if (err.status >= 500) {
    if (options.creates) return new OutcomeUnknownError(`${msg}; the post may exist`, { platformCode: String(err.status), cause: err });
    return new RetryableError(msg, { platformCode: String(err.status), cause: err });
  }
  if (err.status === 408) return options.creates ? new OutcomeUnknownError(msg, { platformCode: '408', cause: err }) : new RetryableError(msg, { platformCode: '408', cause: err });
  return new PermanentError(msg, { platformCode: err.problemType ?? String(err.status), cause: err });
}
