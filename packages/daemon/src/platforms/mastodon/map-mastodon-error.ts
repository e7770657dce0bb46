import { AuthExpiredError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { MastodonApiError, MastodonTransportError, PRIVATE_ADDRESS } from './mastodon-client';
import { header } from '../shared/response-header';

/** Epoch ms from `X-RateLimit-Reset` (Mastodon sends an ISO 8601 time), or null. */
export function rateLimitReset(headers: Record<string, string | string[] | undefined>): number | null {
  const raw = header(headers, 'x-ratelimit-reset');
  if (!raw) return null;
  const at = /^\d+$/.test(raw) ? Number(raw) * 1000 : Date.parse(raw);
  return Number.isFinite(at) && at > 0 ? at : null;
}

/**
 * Turns a Mastodon failure into the publisher's typed errors, keeping the server's own
 * message. Statuses are created with an Idempotency-Key, so a create whose answer was lost
 * (no answer, a 5xx) is retried: the server answers a repeat with the status it made
 * (the adapter looks the status up instead once the key's hour may be over).
 */
export function mapMastodonError(err: unknown, options: { now: number; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof MastodonTransportError && err.code === PRIVATE_ADDRESS) {
    return new PermanentError(`${options.step}: the Mastodon server's name now resolves to an address socialpub does not reach (${err.message})`, { platformCode: 'private-address', cause: err });
  }
  if (err instanceof MastodonTransportError) return new RetryableError(`${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  if (!(err instanceof MastodonApiError)) return new RetryableError(`${options.step}: ${(err as Error).message}`, { cause: err });
  const msg = `Mastodon ${options.step} failed (${err.status}): ${err.message}`;
  if (err.status === 429) {
    return new RateLimitedError(`Mastodon rate limit reached: ${err.message}`, { until: rateLimitReset(err.headers) ?? options.now + 5 * 60_000, platformCode: 'rate-limited', cause: err });
  }
  if (err.status === 401) {
    return new AuthExpiredError(`the Mastodon server refused the access token (${err.message}); reconnect with \`socialpub connect mastodon\``, { platformCode: 'unauthorized', cause: err });
  }
  if (err.status === 408 || err.status >= 500) return new RetryableError(msg, { platformCode: String(err.status), cause: err });
  return new PermanentError(msg, { platformCode: err.status === 422 ? 'validation-failed' : String(err.status), cause: err });
}
