import type * as Http from 'node:http';
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { APIError } from '../errors';
import type { HttpSender, OutgoingRequest, SentResponse } from './sender';

type HttpModule = typeof Http;

/**
 * A sender on node:http / node:https alone, for short-lived programs (the CLI): got and
 * what it loads (http2, tls, zlib, dns, cacheable-request...) cost about 100 ms of CPU
 * on every start, more than the command itself. It keeps the SDK's behaviour — the same
 * errors with the same fields, the same time-outs, aborts and (in the transport) retries
 * — but follows no redirects (a 3xx is an APIError) and asks for no compression. The
 * modules come from `process.getBuiltinModule`, not `import`, because the ESM facade of
 * `node:http` reads every export and three of them load undici (docs/architecture.md,
 * "Start-up"); `node:https` (and with it tls) loads only for an https base URL.
 */
export class NodeSender implements HttpSender {
  send(request: OutgoingRequest): Promise<SentResponse> {
    const url = new URL(request.url);
    const http = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http') as HttpModule;
    const { signal, timeout, body } = request;
    signal?.throwIfAborted();
    const headers = { ...request.headers };
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    else if (body instanceof Uint8Array) headers['content-length'] = String(body.byteLength);
    else if (body === undefined && request.method !== 'GET' && request.method !== 'DELETE') headers['content-length'] = '0';

    return new Promise<SentResponse>((resolve, reject) => {
      const timers: NodeJS.Timeout[] = [];
      let done = false;
      const finish = (error: unknown, result?: SentResponse) => {
        if (done) return;
        done = true;
        for (const t of timers) clearTimeout(t);
        signal?.removeEventListener('abort', onAbort);
        if (error === undefined) {
          resolve(result as SentResponse);
          return;
        }
        req.destroy();
        reject(error);
      };
      const onAbort = () => finish(signal?.reason ?? abortError());
      /** Fails the attempt unless it is done (or `cancel`led) within `timeout`. */
      const deadline = (event: string) => {
        const timer = setTimeout(() => finish(APIError.from(new RequestTimeoutError(event, timeout))), timeout);
        timers.push(timer);
        return () => clearTimeout(timer);
      };

      const req: ClientRequest = http.request(url, { method: request.method, headers });
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (error) => finish(APIError.from(error)));

      let awaitingResponse: (() => void) | undefined;
      if (request.streaming) {
        // Connecting, each silence on the socket, and the wait for the answer once the body is sent.
        const connected = deadline('connect');
        req.on('socket', (socket) => {
          if (socket.connecting) socket.once('connect', connected);
          else connected();
        });
        req.setTimeout(timeout, () => finish(APIError.from(new RequestTimeoutError('socket', timeout))));
        req.on('finish', () => {
          awaitingResponse = deadline('response');
        });
      } else {
        deadline('request');
      }

      req.on('response', (response: IncomingMessage) => {
        awaitingResponse?.();
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error) => finish(APIError.from(error)));
        response.on('aborted', () => finish(APIError.from(Object.assign(new Error('the connection closed before the whole answer arrived'), { code: 'ECONNRESET' }))));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const status = response.statusCode ?? 0;
          if (status >= 200 && status < 300) finish(undefined, { statusCode: status, body: text });
          else finish(APIError.from(new HTTPError(status, response.statusMessage, response.headers, text)));
        });
      });

      if (body === undefined || typeof body === 'string' || body instanceof Uint8Array) {
        req.end(body);
      } else {
        const { Readable, pipeline } = process.getBuiltinModule('node:stream');
        const source = body instanceof Readable ? body : Readable.from(body);
        // A body that fails to read (a file gone) fails the attempt like a broken connection.
        pipeline(source, req, (error) => {
          if (error && !done) finish(APIError.from(error));
        });
      }
    });
  }
}

/** An answer with a status other than 2xx; becomes the matching APIError, kept as its `cause` (as got's HTTPError is). */
export class HTTPError extends Error {
  override name = 'HTTPError';
  readonly code = 'ERR_NON_2XX_3XX_RESPONSE';
  readonly response: { statusCode: number; statusMessage: string | undefined; headers: IncomingHttpHeaders; body: string };

  constructor(statusCode: number, statusMessage: string | undefined, headers: IncomingHttpHeaders, body: string) {
    super(`Response code ${statusCode}${statusMessage ? ` (${statusMessage})` : ''}`);
    this.response = { statusCode, statusMessage, headers, body };
  }
}

/** No connection, no byte or no answer within the time-out (an APIConnectionTimeoutError's cause). */
export class RequestTimeoutError extends Error {
  override name = 'TimeoutError';
  readonly code = 'ETIMEDOUT';
  constructor(
    readonly event: string,
    timeout: number,
  ) {
    super(`Timeout awaiting '${event}' for ${timeout}ms`);
  }
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}
