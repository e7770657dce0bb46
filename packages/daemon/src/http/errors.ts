import { ERROR_STATUS, type ErrorBody, type ErrorCode, type ErrorDetail } from '@socialpub/core';
import { ServiceError, invalidMessage } from '../util/service-error';

export { issuesToDetails } from '../util/service-error';

/** An error answered with the one error body. Thrown anywhere; app.onError turns it into the response. */
export class ApiError extends ServiceError {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    code: ErrorCode,
    message: string,
    details?: ErrorDetail[],
    readonly extra: { retryAfter?: number; headers?: Record<string, string> } = {},
  ) {
    super(code, message, details);
    this.status = ERROR_STATUS[code];
  }

  /** A service's refusal as the HTTP answer. */
  static from(error: ServiceError): ApiError {
    return error instanceof ApiError ? error : new ApiError(error.code, error.message, error.details);
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

/** A 400 whose message names the first problem and whose details list them all. */
export function invalid(details: ErrorDetail[]): ApiError {
  return new ApiError('invalid_request', invalidMessage(details), details);
}
