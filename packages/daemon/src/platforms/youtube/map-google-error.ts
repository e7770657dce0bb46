import { AuthExpiredError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { GoogleApiError, GoogleTransportError } from './google-client';
import { nextPacificMidnight } from './pacific-midnight';

const HINTS: Record<string, string> = {
  quotaExceeded: 'the project\'s daily YouTube quota is used up; it resets at midnight Pacific time',
  uploadLimitExceeded: 'the channel reached its upload limit; YouTube asks to try again in 24 hours',
  youtubeSignupRequired: 'the Google account has no YouTube channel yet: create one, then reconnect',
  forbiddenPrivacySetting: 'this privacy status is not allowed for the channel or project',
  insufficientPermissions: 'the connection lacks a scope this needs (a first comment needs youtube.force-ssl): reconnect with socialpub connect youtube',
};

/**
 * Google's `errors[].reason` as the publisher's typed errors (docs/reference/platforms.md §6.6), keeping
 * Google's message: quotaExceeded waits for the quota reset (midnight Pacific), rate limits
 * back off, authError means the token needs a refresh or a reconnect, 5xx is retried, and
 * validation reasons are permanent.
 */
export function mapGoogleError(err: unknown, options: { now: number; step: string }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof GoogleTransportError) return new RetryableError(`YouTube ${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  if (!(err instanceof GoogleApiError)) return new RetryableError(`YouTube ${options.step}: ${(err as Error).message}`, { cause: err });
  const hint = HINTS[err.reason];
  const msg = `YouTube ${options.step} failed (${err.reason}): ${err.message}${hint ? ` — ${hint}` : ''}`;
  const o = { platformCode: err.reason, cause: err };
  switch (err.reason) {
    case 'quotaExceeded':
    case 'dailyLimitExceeded':
      // The daily quota is the Google Cloud project's: every channel connected through it waits.
      return new RateLimitedError(msg, { ...o, until: nextPacificMidnight(options.now), appliesTo: 'app' });
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
      return new RateLimitedError(msg, { ...o, until: options.now + 60_000 });
    case 'uploadLimitExceeded':
      return new RateLimitedError(msg, { ...o, until: options.now + 24 * 3600_000 });
    case 'authError':
    case 'UNAUTHENTICATED':
    case 'invalid_grant':
      return new AuthExpiredError(msg, o);
  }
  if (err.status === 401) return new AuthExpiredError(msg, o);
  if (err.status === 429) return new RateLimitedError(msg, { ...o, until: options.now + 60_000 });
  if (err.status >= 500) return new RetryableError(msg, o);
  return new PermanentError(msg, o);
}
