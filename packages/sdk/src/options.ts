import type { SdkClock } from './clock';

/** Options of `new SocialPub(...)`. Every one has a default. */
export interface ClientOptions {
  /**
   * The daemon's `{base_url}`, e.g. `http://127.0.0.1:8787`; the SDK appends `/api/agents/v1`.
   * Default: `SOCIALPUB_BASE_URL`, else `http://127.0.0.1:8787`.
   */
  baseUrl?: string | undefined;
  /**
   * The API key (`sp_<id>_<secret>`), sent as `Authorization: Bearer`. Default: `SOCIALPUB_API_KEY`.
   * Only `health()` works without one; other calls throw an AuthenticationError before sending.
   */
  apiKey?: string | undefined;
  /** Milliseconds one attempt may take before it fails with APIConnectionTimeoutError (and may be retried). Default 60 000. */
  timeout?: number | undefined;
  /** Retries after the first attempt (see docs/sdk.md "Retries"). Default 2; 0 turns retries off. */
  maxRetries?: number | undefined;
  /**
   * Longest Retry-After (milliseconds) the SDK waits by itself; a 429 asking for longer is
   * thrown at once as RateLimitError so the caller decides. Default 60 000.
   */
  maxRetryAfter?: number | undefined;
  /** Extra headers on every request. */
  headers?: Record<string, string> | undefined;
  /**
   * Check every answer against its schema (default true): unknown fields are dropped, and
   * an answer that does not match (a daemon of another version) throws
   * APIResponseValidationError. false returns the daemon's JSON object as sent and never
   * loads zod or the schemas, which saves a short-lived program most of its start-up (the
   * CLI, which is built with its daemon, turns it off); types are unchanged, so only turn
   * it off against a daemon of the SDK's own version.
   */
  validateResponses?: boolean | undefined;
  /** Time source for retry waits, polling and reconnection pauses; tests pass a fake one. Not the `maxWait` of a wait on the event stream, which is real time. Default: the real clock. */
  clock?: SdkClock | undefined;
}

/** Options every method takes as its last argument; they override the client's for that call. */
export interface RequestOptions {
  /** Milliseconds per attempt. */
  timeout?: number | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Aborting rejects the call with `signal.reason` (an AbortError by default), during a request or a retry wait. */
  signal?: AbortSignal | undefined;
  /**
   * Idempotency-Key header. `content.publish()` and `media.prepare()` generate one per call
   * when not given; it is resent unchanged on every retry, so a retried POST never creates
   * a second job. Pass your own to make a call safe across process restarts.
   */
  idempotencyKey?: string | undefined;
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8787';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
export const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
