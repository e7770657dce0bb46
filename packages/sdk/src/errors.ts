import type { ErrorDetail } from '@socialpub/core';
import { ERROR_WORD, withRetryTime } from '@socialpub/core/rate-limited';

type Headers = Record<string, string | string[] | undefined>;

/** Every error the SDK throws (except a user's own abort, which passes through as is). */
export class SocialPubError extends Error {
  override name = 'SocialPubError';
}

export interface APIErrorInit {
  status?: number | undefined;
  code: string;
  message: string;
  details?: ErrorDetail[] | undefined;
  requestId?: string | undefined;
  headers?: Headers | undefined;
  body?: unknown;
  cause?: unknown;
}

/**
 * A request that did not succeed: the daemon answered with an error status, or could not
 * be reached. `status` is undefined for connection errors and time-outs.
 */
export class APIError extends SocialPubError {
  override name = 'APIError';
  /** HTTP status; undefined when no answer came back. */
  readonly status: number | undefined;
  /** The daemon's error code (`invalid_request`, `rate_limited`, ...), or the socket error code (`ECONNREFUSED`). */
  readonly code: string;
  /** Field-level problems of a 400 (`[{ path, message }]`). */
  readonly details: ErrorDetail[] | undefined;
  /** The daemon's request id (X-Request-Id), to find the request in its log. */
  readonly requestId: string | undefined;
  readonly headers: Headers | undefined;
  /** The parsed error body as the daemon sent it (or its raw text when it was not JSON). */
  readonly body: unknown;

  constructor(init: APIErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.requestId = init.requestId;
    this.headers = init.headers;
    this.body = init.body;
  }

  /**
   * The one factory: turns whatever a request failed with (got's RequestError, with or
   * without a response) into the matching class, keeping the original as `cause`.
   */
  static from(error: unknown): APIError {
    const response = readResponse(error);
    if (response) return fromResponse(response, error);
    const code = typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : 'connection_error';
    const reason = error instanceof Error ? error.message : String(error);
    if ((error as { name?: unknown })?.name === 'TimeoutError' || code === 'ETIMEDOUT') {
      return new APIConnectionTimeoutError({ code: 'ETIMEDOUT', message: `Request timed out (${reason})`, cause: error });
    }
    return new APIConnectionError({ code, message: `Could not reach the socialpub daemon: ${reason}`, cause: error });
  }
}

export class BadRequestError extends APIError {
  override name = 'BadRequestError';
}
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError';
}
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends APIError {
  override name = 'NotFoundError';
}
export class ConflictError extends APIError {
  override name = 'ConflictError';
}
export class PayloadTooLargeError extends APIError {
  override name = 'PayloadTooLargeError';
}
export class RateLimitError extends APIError {
  override name = 'RateLimitError';
  /** Seconds to wait before the next request (Retry-After), when the daemon said. */
  readonly retryAfter: number | undefined;
  constructor(init: APIErrorInit & { retryAfter?: number | undefined }) {
    super(init);
    this.retryAfter = init.retryAfter;
  }
}
export class InternalServerError extends APIError {
  override name = 'InternalServerError';
}

/** The daemon could not be reached, or the connection broke before an answer came. */
export class APIConnectionError extends APIError {
  override name = 'APIConnectionError';
}
/** No answer within the request's `timeout`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError';
}

/** A 2xx answer whose body does not match the schema this SDK version expects (daemon and SDK versions differ). */
export class APIResponseValidationError extends SocialPubError {
  override name = 'APIResponseValidationError';
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown, cause: unknown) {
    super(`The daemon's answer (HTTP ${status}) does not match what this SDK expects: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.status = status;
    this.body = body;
  }
}

/** A `waitUntil…` helper gave up after its `timeout` while the job or task was still going. */
export class WaitTimeoutError extends SocialPubError {
  override name = 'WaitTimeoutError';
  /** The last state seen. */
  readonly last: unknown;
  constructor(message: string, last: unknown) {
    super(message);
    this.last = last;
  }
}

interface ResponseLike {
  status: number;
  statusMessage: string | undefined;
  headers: Headers;
  body: unknown;
}

function readResponse(error: unknown): ResponseLike | null {
  const response = (error as { response?: { statusCode?: unknown; statusMessage?: string; headers?: Headers; body?: unknown } } | null)?.response;
  if (!response || typeof response.statusCode !== 'number') return null;
  return { status: response.statusCode, statusMessage: response.statusMessage, headers: response.headers ?? {}, body: response.body };
}

const header = (headers: Headers, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** Retry-After is whole seconds or an HTTP date; either becomes seconds from now. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

function fromResponse(response: ResponseLike, cause: unknown): APIError {
  let body: unknown = response.body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  // The one error body: {success:false, error:{code, message, details?, retry_after?, request_id?}}.
  const err = (body as { error?: { code?: unknown; message?: unknown; details?: unknown; retry_after?: unknown; request_id?: unknown } } | null)?.error;
  const structured = err && typeof err === 'object' && typeof err.code === 'string' && typeof err.message === 'string';
  const status = response.status;
  const init: APIErrorInit = {
    status,
    code: structured ? (err.code as string) : `http_${status}`,
    message: structured
      ? (err.message as string)
      : `HTTP ${status}${response.statusMessage ? ` ${response.statusMessage}` : ''}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`,
    details: structured && Array.isArray(err.details) ? (err.details as ErrorDetail[]) : undefined,
    requestId: header(response.headers, 'x-request-id') ?? (structured && typeof err.request_id === 'string' ? err.request_id : undefined),
    headers: response.headers,
    body,
    cause,
  };
  switch (status) {
    case 400:
      return new BadRequestError(init);
    case 401:
      return new AuthenticationError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
      return new ConflictError(init);
    case 413:
      return new PayloadTooLargeError(init);
    case 429: {
      const fromBody = structured && typeof err.retry_after === 'number' ? err.retry_after : undefined;
      const retryAfter = parseRetryAfter(header(response.headers, 'retry-after')) ?? fromBody;
      // Said as every tool of ours says a 429: the word, what ran out, and when to try again in local time.
      return new RateLimitError({ ...init, message: `${ERROR_WORD} ${withRetryTime(init.message, retryAfter, Date.now())}`, retryAfter });
    }
    default:
      return status >= 500 ? new InternalServerError(init) : new APIError(init);
  }
}
