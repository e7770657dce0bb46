import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors';

/**
 * 413 past `maxBytes`, without reading a declared-too-large body at all (Content-Length)
 * and, for a streamed body, stopping at the first byte past the limit (hono's bodyLimit
 * counts the chunks as they arrive and never holds more than the limit).
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const mb = Math.round(maxBytes / (1024 * 1024));
  return honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw new ApiError('payload_too_large', `request body is larger than ${mb} MB; send large media through POST /media/prepare`);
    },
  });
}
