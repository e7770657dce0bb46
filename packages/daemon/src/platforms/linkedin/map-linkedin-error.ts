import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { NoActiveVersionError, PinnedVersionRetiredError } from './api-version';
import { header } from '../shared/response-header';
import { LinkedinApiError, LinkedinTransportError } from './linkedin-client';

/** LinkedIn's daily application and member limits reset at midnight UTC; it sends no reset header. */
function nextUtcMidnight(now: number): number {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
}

/**
 * Turns a LinkedIn failure into the publisher's typed errors, keeping LinkedIn's own
 * message. `creates` marks the call that makes the post (POST /rest/posts, a comment): a
 * failure there after the request left means the post may exist, so it is never plainly
 * retried (the adapter reads the author's posts first).
 */
export function mapLinkedinError(err: unknown, options: { now: number; creates: boolean; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof PinnedVersionRetiredError) return new PermanentError(err.message, { platformCode: 'NONEXISTENT_VERSION', cause: err });
  if (err instanceof NoActiveVersionError) return new RetryableError(err.message, { platformCode: 'NONEXISTENT_VERSION', after: options.now + 3_600_000, cause: err });
  if (err instanceof LinkedinTransportError) {
    if (options.creates && err.sent) return new OutcomeUnknownError(`LinkedIn did not answer ${options.step}; the post may exist: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
    return new RetryableError(`${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  }
  if (!(err instanceof LinkedinApiError)) return new RetryableError(`${options.step}: ${(err as Error).message}`, { cause: err });
  const code = err.code ?? (err.serviceErrorCode !== null ? String(err.serviceErrorCode) : String(err.status));
  const msg = `LinkedIn ${options.step} failed (${err.status}${err.code ? ` ${err.code}` : ''}): ${err.message}`;
  if (err.status === 429) {
    const retryAfter = Number(header(err.headers, 'retry-after'));
    const until = Number.isFinite(retryAfter) && retryAfter > 0 ? options.now + retryAfter * 1000 : nextUtcMidnight(options.now);
    // LinkedIn's application-wide daily limit pauses every connection; a member's own limit only this one.
    const app = /application/i.test(err.message);
    return new RateLimitedError(`LinkedIn rate limit reached: ${err.message}`, { until, appliesTo: app ? 'app' : 'connection', platformCode: 'THROTTLED', cause: err });
  }
  if (err.status === 401) return new AuthExpiredError(`LinkedIn refused the access token (${err.message}); reconnect with \`socialpub connect linkedin\``, { platformCode: code, cause: err });
  if (err.status >= 500 || err.status === 408) {
    if (options.creates) return new OutcomeUnknownError(`${msg}; the post may exist`, { platformCode: code, cause: err });
    return new RetryableError(msg, { platformCode: code, cause: err });
  }
  return new PermanentError(msg, { platformCode: code, cause: err });
}
