import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '@socialpub/core';
import type { z } from 'zod';

/** An error answered with the one error body. Thrown anywhere; app.onError turns it into the response. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly extra: { retryAfter?: number; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  body(requestId?: string): ErrorBody {
    return {
      success: false,
      error: {
        code: this.code,
        message: this.message,
        ...(this.details ? { details: this.details } : {}),
        ...(this.extra.retryAfter !== undefined ? { retry_after: this.extra.retryAfter } : {}),
        ...(requestId ? { request_id: requestId } : {}),
      },
    };
  }
}

/** zod issues as error details: a dotted path and a message each. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[]): ErrorDetail[] {
  return issues.map((i) => ({ path: i.path.map(String).join('.') || '(body)', message: i.message }));
}

/** A 400 whose message names the first problem and whose details list them all. */
export function invalid(details: ErrorDetail[]): ApiError {
  const first = details[0];
  const message = first ? (first.path && first.path !== '(body)' ? `${first.path}: ${first.message}` : first.message) : 'invalid request';
  return new ApiError('invalid_request', message, details);
}
