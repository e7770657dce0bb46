import { APIError, RateLimitError, parseRetryAfter } from './errors';

/** First backoff wait; doubles each retry up to BACKOFF_CAP_MS. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 8_000;

/**
 * Socket errors raised before a single byte of the request left: the daemon did nothing,
 * so even a POST without an idempotency key may be sent again.
 */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

export interface RetryContext {
  /** 0 for the first retry. */
  retry: number;
  /** The request may be repeated without doing its effect twice (GET, PUT, PATCH, DELETE, read-only POSTs, keyed POSTs). */
  repeatable: boolean;
  maxRetryAfterMs: number;
  random: () => number;
}

/**
 * How long to wait before retrying `error`, or null when it must not be retried.
 * - 429: always retryable (the daemon refused before doing anything); waits Retry-After.
 * - connection refused / host not found: always retryable (nothing was sent).
 * - other connection errors, time-outs, 408 and 5xx: only when the request is repeatable.
 * - every other status: never.
 */
export function retryDelay(error: unknown, ctx: RetryContext): number | null {
  if (!(error instanceof APIError)) return null;
  const status = error.status;
  let retryable: boolean;
  if (error instanceof RateLimitError) retryable = true;
  else if (status === undefined) retryable = NOT_SENT.has(error.code) || ctx.repeatable;
  else retryable = (status === 408 || status >= 500) && ctx.repeatable;
  if (!retryable) return null;

  const retryAfter = error instanceof RateLimitError ? error.retryAfter : status === 503 ? retryAfterOf(error) : undefined;
  if (retryAfter !== undefined) {
    const ms = retryAfter * 1000;
    return ms > ctx.maxRetryAfterMs ? null : ms;
  }
  // Capped exponential backoff with up to 25% jitter subtracted, so clients that failed together spread out.
  const base = Math.min(BACKOFF_BASE_MS * 2 ** ctx.retry, BACKOFF_CAP_MS);
  return Math.round(base * (1 - ctx.random() * 0.25));
}

function retryAfterOf(error: APIError): number | undefined {
  const raw = error.headers?.['retry-after'];
  return parseRetryAfter(Array.isArray(raw) ? raw[0] : raw);
}
