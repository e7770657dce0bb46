/**
 * Control flow from adapters to the publisher, as typed errors. Each keeps the
 * platform's own code and message for the user.
 */
export abstract class PublishError extends Error {
  abstract readonly kind: 'retryable' | 'rate_limited' | 'permanent' | 'auth_expired' | 'outcome_unknown';
  readonly platformCode: string | null;

  constructor(message: string, options: { platformCode?: string | null; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.platformCode = options.platformCode ?? null;
  }
}

/**
 * Nothing was created remotely (or what was is checkpointed and safe to resume): try
 * again later. `after` is a minimum wait in ms (the publisher's backoff applies otherwise).
 */
export class RetryableError extends PublishError {
  readonly kind = 'retryable' as const;
  readonly after: number | null;
  constructor(message: string, options: { after?: number | null; platformCode?: string | null; cause?: unknown } = {}) {
    super(message, options);
    this.after = options.after ?? null;
  }
}

/**
 * The platform's rate limit or quota: wait until `until` (epoch ms). `appliesTo` says whom
 * the limit binds: `connection` (default) — the account that got it, which alone is
 * paused; `app` — a limit of this application as a whole (YouTube's daily quota per
 * project, TikTok's daily cap of publishing users, Meta's application request limit, X's
 * usage cap), which pauses every connection of the platform.
 */
export class RateLimitedError extends PublishError {
  readonly kind = 'rate_limited' as const;
  readonly until: number;
  readonly appliesTo: 'connection' | 'app';
  constructor(message: string, options: { until: number; appliesTo?: 'connection' | 'app'; platformCode?: string | null; cause?: unknown }) {
    super(message, options);
    this.until = options.until;
    this.appliesTo = options.appliesTo ?? 'connection';
  }
}

/** Will not succeed by trying again (bad media, duplicate content, policy). */
export class PermanentError extends PublishError {
  readonly kind = 'permanent' as const;
}

/** The token is expired or revoked and could not be refreshed. */
export class AuthExpiredError extends PublishError {
  readonly kind = 'auth_expired' as const;
}

/** The call that publishes may or may not have taken effect (timeout, connection reset after sending). */
export class OutcomeUnknownError extends PublishError {
  readonly kind = 'outcome_unknown' as const;
}
