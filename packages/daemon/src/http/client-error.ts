import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { ErrorCode } from '@socialpub/core';
import type { Logger } from '../util/logger';
import { ApiError } from './errors';

/** What Node's HTTP parser (llhttp) and server raise on a request it cannot take. */
function classify(err: NodeJS.ErrnoException): { code: ErrorCode; message: string } {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', message: 'request headers are larger than the server accepts' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { code: 'request_timeout', message: 'the request was not received in time' };
    default: {
      // llhttp's reason ("Invalid header value char", "Duplicate Content-Length", ...), never the bytes.
      const reason = (err as { reason?: unknown }).reason;
      return { code: 'invalid_request', message: `malformed HTTP request: ${typeof reason === 'string' ? reason : (err.code ?? 'parse error')}` };
    }
  }
}

/**
 * A server 'clientError' listener: answers a request Node's parser refused with the one
 * error body and a request id (Node's default is an empty non-JSON 400), then closes the
 * connection, which a parse error leaves unusable. Nothing is written where the socket is
 * gone or a response has already started on it.
 */
export function answerClientError(logger: Logger): (err: Error, socket: Socket) => void {
  return function answerClientError(err, socket) {
    const e = err as NodeJS.ErrnoException;
    const busy = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
    if (e.code === 'ECONNRESET' || !socket.writable || busy) {
      socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const { code, message } = classify(e);
    const error = new ApiError(code, message);
    logger.info('malformed request', { request_id: requestId, code, parser_error: e.code ?? null, status: error.status });
    const body = JSON.stringify(error.body(requestId));
    const reason = error.status === 431 ? 'Request Header Fields Too Large' : error.status === 408 ? 'Request Timeout' : 'Bad Request';
    socket.end(
      `HTTP/1.1 ${error.status} ${reason}\r\n` +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}
