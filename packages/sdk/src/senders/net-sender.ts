import type * as Net from 'node:net';
import { APIError } from '../errors';
import { HTTPError, NodeSender, RequestTimeoutError } from './node-sender';
import type { HttpSender, OutgoingRequest, SentResponse } from './sender';

/**
 * The CLI's sender for a plain-http daemon (the usual local one): one HTTP/1.1 exchange
 * over a node:net socket (`Connection: close`), read whole. Loading and running node:http
 * (its agent, parser and request machinery) cost a one-request command about 4 ms of CPU,
 * a fifth of what it spends above a bare `node` (docs/architecture.md, "Start-up"); this
 * keeps NodeSender's behaviour — the same headers and Content-Length, the same errors with
 * the same fields (an `HTTPError` as cause for a non-2xx, the socket's own error for a
 * refused or broken connection, `socket hang up` when it closes before an answer), the
 * same time-out and abort — and hands anything else (https, a streamed upload) to
 * NodeSender. It reads what a daemon answers: a Content-Length, chunked or
 * close-delimited body; informational (1xx) heads are skipped.
 */
export class NetSender implements HttpSender {
  private readonly fallback = new NodeSender();

  send(request: OutgoingRequest): Promise<SentResponse> {
    const { body } = request;
    const url = new URL(request.url);
    if (url.protocol !== 'http:' || !(body === undefined || typeof body === 'string' || body instanceof Uint8Array)) return this.fallback.send(request);
    const { signal, timeout } = request;
    signal?.throwIfAborted();
    const payload = body === undefined ? undefined : typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const headers: Record<string, string> = { host: url.host, ...request.headers };
    if (payload !== undefined) headers['content-length'] = String(payload.byteLength);
    else if (request.method !== 'GET' && request.method !== 'DELETE') headers['content-length'] = '0';
    headers.connection = 'close';
    let head = `${request.method} ${url.pathname}${url.search} HTTP/1.1\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${checkedName(name)}: ${checkedValue(name, value)}\r\n`;
    head += '\r\n';

    const net = process.getBuiltinModule('node:net') as typeof Net;
    return new Promise<SentResponse>((resolve, reject) => {
      let done = false;
      const finish = (error: unknown, result?: SentResponse) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        socket.destroy();
        if (error === undefined) resolve(result as SentResponse);
        else reject(error);
      };
      const onAbort = () => finish(signal?.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      const timer = setTimeout(() => finish(APIError.from(new RequestTimeoutError('request', timeout))), timeout);
      // An IPv6 literal comes bracketed in a URL ([::1]), not in a socket address.
      const socket = net.connect({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port === '' ? 80 : Number(url.port) });
      signal?.addEventListener('abort', onAbort, { once: true });
      const reader = new AnswerReader();
      socket.on('error', (error) => finish(APIError.from(error)));
      socket.on('data', (chunk: Buffer) => {
        try {
          const answer = reader.push(chunk);
          if (answer) settle(answer);
        } catch (error) {
          finish(APIError.from(error));
        }
      });
      socket.on('end', () => {
        try {
          const answer = reader.end();
          if (answer) settle(answer);
        } catch (error) {
          finish(APIError.from(error));
        }
      });
      socket.on('close', () => finish(APIError.from(hangUp())));
      const settle = (answer: Answer) => {
        const text = answer.body.toString('utf8');
        if (answer.status >= 200 && answer.status < 300) finish(undefined, { statusCode: answer.status, body: text });
        else finish(APIError.from(new HTTPError(answer.status, answer.statusMessage, answer.headers, text)));
      };
      socket.write(payload === undefined ? head : Buffer.concat([Buffer.from(head, 'latin1'), payload]));
    });
  }
}

interface Answer {
  status: number;
  statusMessage: string | undefined;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** An HTTP/1.1 answer read from the bytes of a connection, as they come. */
export class AnswerReader {
  /** Bytes not yet taken: the head while it is incomplete, then a chunked body's. */
  private buffered: Buffer = Buffer.alloc(0);
  private answer: Omit<Answer, 'body'> | undefined;
  /** How the body ends: a length, chunked, or the connection's close. */
  private framing: { kind: 'length'; length: number } | { kind: 'chunked' } | { kind: 'close' } = { kind: 'close' };
  private readonly chunks: Buffer[] = [];
  private received = 0;

  /** Takes bytes; returns the whole answer once it has arrived. */
  push(data: Buffer): Answer | undefined {
    if (this.answer !== undefined && this.framing.kind !== 'chunked') return this.take(data);
    this.buffered = this.buffered.length === 0 ? data : Buffer.concat([this.buffered, data]);
    while (this.answer === undefined) {
      const end = this.buffered.indexOf('\r\n\r\n');
      if (end === -1) {
        if (this.buffered.length > 80 * 1024) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
        return undefined;
      }
      const head = this.buffered.subarray(0, end).toString('latin1');
      this.buffered = this.buffered.subarray(end + 4);
      // An informational head (100 Continue) is skipped: the answer follows it.
      this.readHead(head);
    }
    if (this.framing.kind === 'chunked') return this.readChunks();
    const rest = this.buffered;
    this.buffered = Buffer.alloc(0);
    return this.take(rest);
  }

  /** The connection ended: the answer when its body ends with the connection; undefined when no answer came. */
  end(): Answer | undefined {
    if (this.answer === undefined) return undefined;
    if (this.framing.kind === 'close') return { ...this.answer, body: Buffer.concat(this.chunks) };
    throw Object.assign(new Error('the connection closed before the whole answer arrived'), { code: 'ECONNRESET' });
  }

  /** Body bytes of a length- or close-delimited answer. */
  private take(data: Buffer): Answer | undefined {
    if (data.length > 0) this.chunks.push(data);
    this.received += data.length;
    if (this.framing.kind !== 'length' || this.received < this.framing.length) return undefined;
    return { ...(this.answer as Omit<Answer, 'body'>), body: Buffer.concat(this.chunks).subarray(0, this.framing.length) };
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const status = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
    if (!status) throw parseError('HPE_INVALID_CONSTANT', 'Expected HTTP/');
    const code = Number(status[1]);
    if (code < 200) return;
    const headers: Record<string, string | string[]> = {};
    for (const line of lines.slice(1)) {
      const colon = line.indexOf(':');
      if (colon <= 0) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      const seen = headers[name];
      if (name === 'set-cookie') headers[name] = [...((seen as string[] | undefined) ?? []), value];
      else headers[name] = seen === undefined ? value : `${seen as string}, ${value}`;
    }
    this.answer = { status: code, statusMessage: status[2] || undefined, headers };
    const length = headers['content-length'];
    if (code === 204 || code === 304) this.framing = { kind: 'length', length: 0 };
    else if (/\bchunked\b/i.test(String(headers['transfer-encoding'] ?? ''))) this.framing = { kind: 'chunked' };
    else if (typeof length === 'string') {
      if (!/^\d+$/.test(length)) throw parseError('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
      this.framing = { kind: 'length', length: Number(length) };
    }
  }

  /** The chunks of a chunked body that have arrived whole; the answer after the last (and its trailers). */
  private readChunks(): Answer | undefined {
    for (;;) {
      const lineEnd = this.buffered.indexOf('\r\n');
      if (lineEnd === -1) return undefined;
      const sizeText = (this.buffered.subarray(0, lineEnd).toString('latin1').split(';')[0] as string).trim();
      if (!/^[0-9a-fA-F]+$/.test(sizeText)) throw parseError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
      const size = Number.parseInt(sizeText, 16);
      if (size === 0) {
        // The last chunk: its line, any trailers, then an empty line.
        if (this.buffered.indexOf('\r\n\r\n', lineEnd) === -1) return undefined;
        return { ...(this.answer as Omit<Answer, 'body'>), body: Buffer.concat(this.chunks) };
      }
      if (this.buffered.length < lineEnd + 2 + size + 2) return undefined;
      this.chunks.push(this.buffered.subarray(lineEnd + 2, lineEnd + 2 + size));
      this.buffered = this.buffered.subarray(lineEnd + 2 + size + 2);
    }
  }
}

/** What node:http throws for a header name that is not a token (checkIsHttpToken). */
function checkedName(name: string): string {
  if (!/^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/.test(name)) throw Object.assign(new TypeError(`Header name must be a valid HTTP token ["${name}"]`), { code: 'ERR_INVALID_HTTP_TOKEN' });
  return name;
}

/** What node:http throws for a header value with a line break or another control character (checkInvalidHeaderChar). */
function checkedValue(name: string, value: string): string {
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), { code: 'ERR_INVALID_CHAR' });
  return value;
}

function parseError(code: string, reason: string): Error {
  return Object.assign(new Error(`Parse Error: ${reason}`), { code });
}

/** What node:http gives when the connection closes before an answer. */
function hangUp(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}
