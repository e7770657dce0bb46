import type { MediaErrorCode } from '@socialpub/core';

/** A per-file preparation failure with the code reported in a task's `failed[]`. */
export class MediaError extends Error {
  readonly code: MediaErrorCode;
  /** The source's HTTP status, for http_error. */
  readonly status: number | null;

  constructor(code: MediaErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, { cause: options.cause });
    this.name = 'MediaError';
    this.code = code;
    this.status = options.status ?? null;
  }

  /** Worth trying again later (the publisher retries these): network trouble, 5xx, 429, time-outs. */
  get transient(): boolean {
    if (this.code === 'fetch_failed' || this.code === 'timeout') return true;
    return this.code === 'http_error' && (this.status === null || this.status >= 500 || this.status === 429 || this.status === 408);
  }
}

/** Any thrown value as a MediaError; unknown failures become fetch_failed. */
export function toMediaError(err: unknown): MediaError {
  if (err instanceof MediaError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new MediaError('fetch_failed', `could not fetch the file: ${message}`, { cause: err });
}
