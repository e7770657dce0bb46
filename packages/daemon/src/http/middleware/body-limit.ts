import type { MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { ApiError } from '../errors';

const DECIMAL = /^\d+$/;

/**
 * 413 past `maxBytes`, without reading a declared-too-large body at all (Content-Length)
 * and, for a streamed body, stopping at the first byte past the limit (hono's bodyLimit
 * counts the chunks as they arrive and never holds more than the limit).
 *
 * A body with a Content-Length (and no Transfer-Encoding) is checked from the header alone:
 * Node's HTTP parser never delivers more bytes than it declares. That case is decided here,
 * before hono's middleware, because hono's looks at `request.body` first, which makes the
 * Node adapter build a web ReadableStream over the socket — a third of the CPU time of a
 * small POST — where the adapter otherwise reads the body straight from the socket.
 */
export function bodyLimit(maxBytes: number): MiddlewareHandler {
  const mb = Math.round(maxBytes / (1024 * 1024));
  const tooLarge = () => new ApiError('payload_too_large', `request body is larger than ${mb} MB; send large media through POST /media/prepare`);
  const streamed = honoBodyLimit({
    maxSize: maxBytes,
    onError: () => {
      throw tooLarge();
    },
  });
  return async function bodyLimit(c, next) {
    const length = c.req.header('content-length');
    if (length !== undefined && DECIMAL.test(length) && c.req.header('transfer-encoding') === undefined) {
      if (Number(length) > maxBytes) throw tooLarge();
      return next();
    }
    return streamed(c, next);
  };
}
