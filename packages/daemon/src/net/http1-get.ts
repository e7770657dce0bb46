import net from 'node:net';
import tls from 'node:tls';
import { MediaError } from './media-error';

/**
 * A single HTTP/1.1 GET over a socket that reads into one reusable buffer.
 *
 * Why not node:http: its client allocates a fresh Buffer for every socket read, and at
 * loopback speeds those dead buffers pile up as external memory until the next GC, so a
 * 500 MB download peaks at 150 MB+ RSS. Reading into one small fixed buffer (`onread`,
 * which works for TLS sockets too) and handing each read to the file writer while it is
 * still in the CPU cache keeps the footprint flat and the throughput close to curl's. The protocol subset is small:
 * one GET, `Connection: close`, bodies framed by Content-Length, chunked or close.
 */

export interface Http1Target {
  /** The checked address to connect to (never resolved again). */
  address: string;
  family: 4 | 6;
}

export interface Http1Options {
  headers: Record<string, string>;
  signal: AbortSignal;
  /** No complete response head within this time: fetch_failed. */
  headersTimeoutMs: number;
  /** No bytes for this long: fetch_failed. */
  idleTimeoutMs: number;
  /** Extra trusted CA certificates (PEM), added to the system's; for tests with a local TLS server. */
  ca?: string;
}

/** Receives body bytes without a copy per read; `chunk` is valid only during write(). */
export interface BodySink {
  /** Takes the whole chunk now; false asks for a pause until drained() resolves. May throw to abort. */
  write(chunk: Buffer): boolean;
  drained(): Promise<void>;
}

export interface Http1Response {
  status: number;
  statusText: string;
  /** Lower-cased names; repeated headers joined with ", " (Set-Cookie kept apart). */
  headers: Record<string, string>;
  setCookies: string[];
  /** The next body bytes (a copy), or null at the end. */
  read(): Promise<Buffer | null>;
  /** Streams the rest of the body into `sink`; resolves at the end of the body. */
  pipeTo(sink: BodySink): Promise<void>;
  /** Closes the connection (a redirect's or a refused file's body is never read). */
  destroy(): void;
}

const READ_BUFFER = 64 * 1024;
const MAX_HEAD = 64 * 1024;
const QUEUE_HIGH = 1024 * 1024;

export function http1Get(url: URL, target: Http1Target, options: Http1Options): Promise<Http1Response> {
  return new Promise<Http1Response>((resolveHead, rejectHead) => {
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const isName = net.isIP(hostname) === 0;
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const readBuffer = Buffer.allocUnsafe(READ_BUFFER);
    const onread = { buffer: readBuffer, callback: (n: number) => onData(readBuffer.subarray(0, n)) };
    const socket: net.Socket =
      url.protocol === 'https:'
        ? // onread works for TLS sockets since Node 15; @types/node does not list it for tls.
          tls.connect({ host: target.address, port, servername: isName ? hostname : undefined, ALPNProtocols: ['http/1.1'], onread, ...(options.ca ? { ca: [...tls.rootCertificates, options.ca] } : {}) } as tls.ConnectionOptions)
        : net.connect({ host: target.address, port, onread });

    let phase: 'head' | 'body' | 'done' | 'failed' = 'head';
    let head = Buffer.alloc(0);
    let failure: unknown = null;
    let response: Http1Response | null = null;
    let decoder: BodyDecoder | null = null;
    // Body delivery: a queue of copies for read(), or a sink for pipeTo().
    const queue: Buffer[] = [];
    let queued = 0;
    let sink: BodySink | null = null;
    let pauseWanted = false;
    let paused = false;
    const resumeIfPaused = () => {
      if (!paused || phase !== 'body') return;
      paused = false;
      socket.resume();
    };
    let wake: (() => void) | null = null;
    let finished: { resolve: () => void; reject: (e: unknown) => void } | null = null;

    const headersTimer = setTimeout(() => fail(new MediaError('fetch_failed', `${url.host} sent no answer within ${options.headersTimeoutMs / 1000} s`)), options.headersTimeoutMs);
    socket.setTimeout(options.idleTimeoutMs, () => fail(new MediaError('fetch_failed', `${url.host} stalled: no data for ${options.idleTimeoutMs / 1000} s`)));
    const onAbort = () => fail(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });

    socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => {
      const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, 'Connection: close'];
      for (const [k, v] of Object.entries(options.headers)) lines.push(`${k}: ${v}`);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      fail(err instanceof MediaError ? err : new MediaError('fetch_failed', `could not fetch from ${url.host}: ${err.code ?? err.message}`, { cause: err })),
    );
    socket.on('end', () => {
      if (phase === 'body' && decoder?.untilClose) return complete();
      if (phase !== 'done') fail(new MediaError('fetch_failed', `${url.host} closed the connection before the end of the ${phase === 'head' ? 'answer' : 'file'}`));
    });
    socket.on('close', () => {
      if (phase === 'head' || phase === 'body') fail(new MediaError('fetch_failed', `${url.host} closed the connection`));
    });

    function onData(data: Buffer): boolean {
      try {
        if (phase === 'head') {
          head = Buffer.concat([head, data]);
          const end = head.indexOf('\r\n\r\n');
          if (end < 0) {
            if (head.length > MAX_HEAD) throw new MediaError('fetch_failed', `${url.host} sent an oversized answer head`);
            return true;
          }
          const rest = head.subarray(end + 4);
          const parsed = parseHead(head.subarray(0, end).toString('latin1'));
          head = Buffer.alloc(0);
          if (parsed.status >= 100 && parsed.status < 200) return onData(rest); // 100 Continue and friends
          clearTimeout(headersTimer);
          decoder = new BodyDecoder(parsed.headers, parsed.status);
          phase = 'body';
          response = makeResponse(parsed);
          resolveHead(response);
          if (rest.length) decoder.feed(Buffer.from(rest), deliver);
        } else if (phase === 'body' && decoder) {
          decoder.feed(data, deliver);
        }
        if (phase === 'body' && decoder?.done) complete();
        if (pauseWanted && phase === 'body') {
          // Explicitly, not by returning false: resume() must find the socket paused.
          pauseWanted = false;
          paused = true;
          socket.pause();
        }
        return true;
      } catch (err) {
        fail(err);
        return false;
      }
    }

    function deliver(chunk: Buffer): void {
      if (sink) {
        if (!sink.write(chunk)) {
          pauseWanted = true;
          void sink.drained().then(resumeIfPaused);
        }
        return;
      }
      queue.push(Buffer.from(chunk));
      queued += chunk.length;
      if (queued >= QUEUE_HIGH) pauseWanted = true;
      wake?.();
    }

    function complete(): void {
      if (phase !== 'body') return;
      phase = 'done';
      cleanup();
      socket.destroy();
      wake?.();
      finished?.resolve();
    }

    function fail(err: unknown): void {
      if (phase === 'done' || phase === 'failed') return;
      const wasHead = phase === 'head';
      phase = 'failed';
      failure = err;
      cleanup();
      socket.destroy();
      if (wasHead) rejectHead(err);
      wake?.();
      finished?.reject(err);
    }

    function cleanup(): void {
      clearTimeout(headersTimer);
      options.signal.removeEventListener('abort', onAbort);
    }

    function makeResponse(parsed: ParsedHead): Http1Response {
      return {
        ...parsed,
        async read() {
          for (;;) {
            const next = queue.shift();
            if (next) {
              queued -= next.length;
              if (queued < QUEUE_HIGH) resumeIfPaused();
              return next;
            }
            if (phase === 'failed') throw failure;
            if (phase === 'done') return null;
            await new Promise<void>((r) => (wake = r));
            wake = null;
          }
        },
        async pipeTo(target: BodySink) {
          // What read() left queued goes first, then the sink takes the bytes straight from the socket.
          while (queue.length) {
            const next = queue.shift() as Buffer;
            queued -= next.length;
            if (!target.write(next)) await target.drained();
          }
          if (phase === 'failed') throw failure;
          if (phase === 'done') return;
          sink = target;
          const done = new Promise<void>((resolve, reject) => (finished = { resolve, reject }));
          resumeIfPaused();
          await done;
        },
        destroy() {
          if (phase === 'body' || phase === 'head') {
            phase = 'done';
            cleanup();
          }
          socket.destroy();
        },
      };
    }
  });
}

interface ParsedHead {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  setCookies: string[];
}

function parseHead(text: string): ParsedHead {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine);
  if (!m) throw new MediaError('fetch_failed', 'the source did not answer with HTTP/1.1');
  const headers: Record<string, string> = {};
  const setCookies: string[] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'set-cookie') setCookies.push(value);
    else headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(m[1]), statusText: m[2] ?? '', headers, setCookies };
}

/** Unframes a body: Content-Length, chunked, or up to the end of the connection. */
class BodyDecoder {
  done = false;
  readonly untilClose: boolean;
  #remaining: number;
  readonly #chunked: boolean;
  #state: 'size' | 'data' | 'data-end' | 'trailer' = 'size';
  #line = '';

  constructor(headers: Record<string, string>, status: number) {
    this.#chunked = /(^|,)\s*chunked\s*$/i.test(headers['transfer-encoding'] ?? '');
    const length = headers['content-length'];
    if (status === 204 || status === 304) {
      this.#remaining = 0;
      this.untilClose = false;
      this.done = true;
    } else if (this.#chunked) {
      this.#remaining = 0;
      this.untilClose = false;
    } else if (length !== undefined && /^\d+$/.test(length.split(',')[0]?.trim() ?? '')) {
      this.#remaining = Number(length.split(',')[0]);
      this.untilClose = false;
      this.done = this.#remaining === 0;
    } else {
      this.#remaining = Infinity;
      this.untilClose = true;
    }
  }

  feed(data: Buffer, deliver: (chunk: Buffer) => void): void {
    if (!this.#chunked) {
      if (this.done) return;
      const take = Math.min(data.length, this.#remaining);
      if (take > 0) deliver(data.subarray(0, take));
      this.#remaining -= take;
      if (this.#remaining === 0) this.done = true;
      return;
    }
    let i = 0;
    while (i < data.length && !this.done) {
      if (this.#state === 'data') {
        const take = Math.min(data.length - i, this.#remaining);
        deliver(data.subarray(i, i + take));
        i += take;
        this.#remaining -= take;
        if (this.#remaining === 0) this.#state = 'data-end';
        continue;
      }
      // Line-oriented states: size lines, the CRLF after data, trailers.
      const nl = data.indexOf(0x0a, i);
      const end = nl < 0 ? data.length : nl + 1;
      this.#line += data.toString('latin1', i, end);
      i = end;
      if (nl < 0) {
        if (this.#line.length > 4096) throw new MediaError('fetch_failed', 'malformed chunked encoding');
        continue;
      }
      const line = this.#line.replace(/\r?\n$/, '');
      this.#line = '';
      if (this.#state === 'data-end') {
        if (line !== '') throw new MediaError('fetch_failed', 'malformed chunked encoding');
        this.#state = 'size';
      } else if (this.#state === 'size') {
        const size = parseInt(line.split(';', 1)[0] ?? '', 16);
        if (!Number.isFinite(size) || size < 0) throw new MediaError('fetch_failed', 'malformed chunked encoding');
        if (size === 0) this.#state = 'trailer';
        else {
          this.#remaining = size;
          this.#state = 'data';
        }
      } else if (line === '') {
        this.done = true; // end of trailers
      }
    }
  }
}
