import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
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
    const { code, message } = classify(e);
    const error = new ApiError(code, message);
    const requestId = writeError(socket, error);
    logger.info('malformed request', { request_id: requestId, code, parser_error: e.code ?? null, status: error.status });
  };
}

/**
 * A server 'connect' listener: a CONNECT request (a proxy tunnel) gets the one error body,
 * 400 `invalid_request`, and the connection closes. Without it Node closes the socket with
 * no answer at all (issue 28).
 */
export function answerConnect(logger: Logger): (req: IncomingMessage, socket: Duplex) => void {
  return function answerConnect(req, socket) {
    const error = new ApiError('invalid_request', `CONNECT is not served here: socialpub is not a proxy (the request was CONNECT ${req.url ?? ''})`);
    const requestId = writeError(socket, error);
    logger.info('refused CONNECT', { request_id: requestId, status: error.status });
  };
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Writes `error` as a whole HTTP/1.1 response with a fresh request id and closes the connection; returns the id. */
function writeError(socket: Duplex, error: ApiError): string {
  const requestId = randomUUID();
  const body = JSON.stringify(error.body(requestId));
  socket.end(
    `HTTP/1.1 ${error.status} ${REASONS[error.status] ?? 'Bad Request'}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
  return requestId;
}
