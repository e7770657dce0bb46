import { AuthExpiredError, OutcomeUnknownError, PermanentError, PublishError, RateLimitedError, RetryableError } from '../errors';
import { TikTokApiError, TikTokTransportError } from './tiktok-client';

const DAY_MS = 24 * 3600_000;

/** Hints for codes whose fix is on the user's side (docs/reference/platforms.md §5.4-5.6). */
const HINTS: Record<string, string> = {
  unaudited_client_can_only_post_to_private_accounts:
    'TikTok only lets unaudited apps post privately from private accounts: set the connection privacy to SELF_ONLY or have the app audited',
  url_ownership_unverified: 'TikTok pulls only from a verified domain: verify the public base URL in the TikTok developer portal, or remove it to upload the bytes instead',
  privacy_level_option_mismatch: 'The privacy level is not one this creator can use now',
  spam_risk_user_banned_from_posting: 'TikTok has banned this account from posting',
  scope_not_authorized: 'The connection lacks the video.publish scope: reconnect with `socialpub connect tiktok`',
};

/**
 * TikTok's `{data, error{code, message, log_id}}` failures as the publisher's typed errors,
 * keeping TikTok's message and log id. `creates`: the call may itself start a post
 * (PULL_FROM_URL init), so a lost answer is an unknown outcome.
 */
export function mapTikTokError(err: unknown, options: { now: number; step: string; creates?: boolean }): PublishError {
  if (err instanceof PublishError) return err;
  if (err instanceof TikTokTransportError) {
    if (options.creates && err.sent) return new OutcomeUnknownError(`TikTok did not answer ${options.step}; the post may have started: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
    return new RetryableError(`TikTok ${options.step}: ${err.message}`, { platformCode: err.code ?? 'transport', cause: err });
  }
  if (!(err instanceof TikTokApiError)) return new RetryableError(`TikTok ${options.step}: ${(err as Error).message}`, { cause: err });
  const hint = HINTS[err.code];
  const msg = `TikTok ${options.step} failed (${err.code}): ${err.message}${hint ? ` — ${hint}` : ''}${err.logId ? ` [log_id ${err.logId}]` : ''}`;
  const o = { platformCode: err.code, cause: err };
  switch (err.code) {
    case 'rate_limit_exceeded':
      return new RateLimitedError(msg, { ...o, until: options.now + 60_000 });
    case 'spam_risk_too_many_posts':
    case 'spam_risk_too_many_pending_share':
      return new RateLimitedError(msg, { ...o, until: options.now + DAY_MS });
    case 'reached_active_user_cap':
      // The app's daily quota of active publishing users: no connection of this app can post until it resets.
      return new RateLimitedError(msg, { ...o, until: options.now + DAY_MS, appliesTo: 'app' });
    case 'access_token_invalid':
    case 'scope_not_authorized':
    case 'scope_permission_missed':
      return new AuthExpiredError(msg, o);
    case 'internal_error':
      return new RetryableError(msg, o);
  }
  if (err.status === 429) return new RateLimitedError(msg, { ...o, until: options.now + 60_000 });
  if (err.status === 401) return new AuthExpiredError(msg, o);
  if (err.status >= 500) return options.creates ? new OutcomeUnknownError(msg, o) : new RetryableError(msg, o);
  return new PermanentError(msg, o);
}

const publishFailures = new WeakSet<PublishError>();

/** `fail_reason` of a FAILED publish: only `internal` and pull failures are worth another attempt. */
export function failReasonError(reason: string | undefined): PublishError {
  const r = reason || 'unknown';
  const msg = `TikTok could not publish the video (${r})`;
  const err = r === 'internal' || r === 'video_pull_failed' || r === 'photo_pull_failed' ? new RetryableError(msg, { platformCode: r }) : new PermanentError(msg, { platformCode: r });
  publishFailures.add(err);
  return err;
}

/** True for errors that mean TikTok reported the publish FAILED (nothing was posted). */
export function isPublishFailure(err: unknown): boolean {
  return err instanceof PublishError && publishFailures.has(err);
}
