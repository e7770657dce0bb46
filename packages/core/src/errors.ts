/** Every error code the interface answers with, and its HTTP status. */
export const ERROR_STATUS = Object.freeze({
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  platform_not_connected: 403,
  facebook_page_not_selected: 403,
  https_required: 403,
  csrf_failed: 403,
  insufficient_scope: 403,
  not_found: 404,
  request_timeout: 408,
  conflict: 409,
  idempotency_conflict: 409,
  gone: 410,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
} as const);
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
  [extra: string]: unknown;
}

/** The one error body. */
export interface ErrorBody {
  success: false;
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; retry_after?: number; request_id?: string };
}

/** Per-target failure codes stored on a target's `error` (not HTTP statuses). */
export const TARGET_ERROR_CODES = Object.freeze([
  'platform_error',
  'platform_not_connected',
  'auth_expired',
  'media_unavailable',
  'outcome_unknown',
  'attempts_exhausted',
  'validation_failed',
] as const);
export type TargetErrorCode = (typeof TARGET_ERROR_CODES)[number];
