import got, { type Got, type OptionsInit } from 'got';
import { Agent, request } from 'undici';

/** A platform's answer as the clients read it: status, headers and the body as text. */
export interface PlatformAnswer {
  statusCode: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * A transport failure of the undici path, shaped like got's (code, event, message) so that
 * wasSent, the clients' error mapping and the messages stored on a target read the same
 * whichever client made the call: `ETIMEDOUT` with event `request` ("Timeout awaiting
 * 'request' for 60000ms") for the request timeout, `event: 'connect'` for a connect timeout
 * (nothing sent), `ERR_ABORTED` when the caller's signal ends it, and the socket's own code
 * (`ECONNREFUSED`, `ECONNRESET`…) otherwise.
 */
export class PlatformRequestError extends Error {
  override name = 'RequestError';
  constructor(
    message: string,
    readonly code: string,
    readonly event?: string,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

/**
 * One keep-alive connection pool per platform origin, shared by every connection and
 * attempt of the daemon: a call reuses an idle socket to its host instead of opening one.
 * At most 256 sockets to one origin; calls past that wait in the pool for a free socket.
 * Unbounded, a burst opened a socket for every call in flight at once (1,536 to the
 * sandbox's one origin in bench/burst's 3,000): more connections at once than a server's
 * accept queue holds (511 for Node's servers), and about 250 of those calls met a reset
 * (`ListenOverflows` in /proc/net/netstat counts such drops) — a publishing call's outcome
 * then unknown, settled by reading the page back and retried a minute later. A call holds
 * its socket 200-400 ms there, so 256 sockets carry over 600 calls a second.
 * An idle socket is kept at most 1 s, whatever keep-alive the server offers: a call written
 * to a socket the server is closing meets a reset (an unknown outcome for a publishing
 * call), and the daemon's timers run late when a burst loads the machine, so the margin to
 * the server's own idle timeout (5 s for Node's servers, the simulators') is kept wide.
 * Within a burst calls follow each other on a socket well inside that second.
 */
const agent = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000, connections: 256 });

/** got options the undici path carries over; any other option set sends the call through got. */
const CARRIED = new Set(['method', 'headers', 'form', 'json', 'body', 'searchParams', 'signal', 'timeout', 'throwHttpErrors', 'retry', 'followRedirect']);

/**
 * Sends one platform API call. The platform clients build got options (singleAttempt: one
 * attempt, no redirects, HTTP errors answered, a request timeout) and call this:
 *
 * - with `http` (a got instance a caller or test injected, with its hooks) the call goes
 *   through it, unchanged;
 * - otherwise a call whose body is a form, JSON, text or bytes goes through undici's
 *   `request` on the shared keep-alive pool above: the same request on the wire, at about
 *   half got's CPU per call (got builds and merges an Options object, a duplex stream and
 *   Node's ClientRequest per call; `bench/burst`'s end-to-end profile put about half the
 *   daemon's CPU in got and Node's http client). Multipart and streamed bodies (media
 *   uploads) keep going through got.
 *
 * No retries and no redirects on either path: a retried or redirected POST could post
 * twice (single-attempt.ts). No compression is asked for, so none needs undoing.
 */
export async function platformRequest(http: Got | undefined, url: string, opts: OptionsInit): Promise<PlatformAnswer> {
  if (http || !carried(opts)) return (await (http ?? got)(url, opts)) as unknown as PlatformAnswer;
  const headers: Record<string, string> = { ...(opts.headers as Record<string, string> | undefined) };
  let body: string | Buffer | undefined;
  if (opts.form !== undefined) {
    body = new URLSearchParams(opts.form as Record<string, string>).toString();
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (opts.json !== undefined) {
    body = JSON.stringify(opts.json);
    headers['content-type'] ??= 'application/json';
  } else if (typeof opts.body === 'string' || Buffer.isBuffer(opts.body)) {
    body = opts.body;
  }
  const search = opts.searchParams ? new URLSearchParams(opts.searchParams as Record<string, string>).toString() : '';
  const target = search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
  const timeoutMs = (opts.timeout as { request?: number } | undefined)?.request;
  const signal = opts.signal as AbortSignal | undefined;
  return send(target, (opts.method ?? 'GET').toUpperCase(), headers, body, timeoutMs, signal);
}

function carried(opts: OptionsInit): boolean {
  for (const k of Object.keys(opts)) if (!CARRIED.has(k) && (opts as Record<string, unknown>)[k] !== undefined) return false;
  if (opts.body !== undefined && typeof opts.body !== 'string' && !Buffer.isBuffer(opts.body)) return false;
  // Only the single-attempt shape: got's own retries or redirects are not reproduced here.
  if (opts.followRedirect !== false) return false;
  const retry = opts.retry as { limit?: number } | undefined;
  return retry?.limit === 0;
}

async function send(url: string, method: string, headers: Record<string, string>, body: string | Buffer | undefined, timeoutMs: number | undefined, signal: AbortSignal | undefined): Promise<PlatformAnswer> {
  if (signal?.aborted) throw aborted(signal);
  const ac = new AbortController();
  let timedOut = false;
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          ac.abort();
        }, timeoutMs);
  const onAbort = () => ac.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const res = await request(url, { method: method as 'GET', headers, body, signal: ac.signal, dispatcher: agent, headersTimeout: 0, bodyTimeout: 0 });
    const text = await res.body.text();
    return { statusCode: res.statusCode, body: text, headers: res.headers };
  } catch (err) {
    if (timedOut) throw new PlatformRequestError(`Timeout awaiting 'request' for ${timeoutMs}ms`, 'ETIMEDOUT', 'request', { cause: err });
    if (signal?.aborted) throw aborted(signal, err);
    throw transportError(err);
  } finally {
    if (timer) clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}

function aborted(signal: AbortSignal, cause: unknown = signal.reason): PlatformRequestError {
  return new PlatformRequestError('This operation was aborted.', 'ERR_ABORTED', undefined, { cause });
}

/** undici's errors in got's terms: the socket's own code where there is one. */
function transportError(err: unknown): PlatformRequestError {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.code === 'UND_ERR_CONNECT_TIMEOUT') return new PlatformRequestError(`Timeout awaiting 'connect': ${e.message}`, 'ETIMEDOUT', 'connect', { cause: err });
  if (e.code === 'UND_ERR_SOCKET' || e.code === 'UND_ERR_CLOSED') {
    // The server closed or reset the connection before its answer: got's "socket hang up" / "read ECONNRESET".
    const code = e.cause?.code ?? 'ECONNRESET';
    return new PlatformRequestError(e.cause?.code ? `${e.cause.message ?? 'socket error'}` : `socket hang up (${code})`, code, undefined, { cause: err });
  }
  // A URL or option undici refused: nothing was sent (got's ERR_INVALID_URL).
  if (e.code === 'UND_ERR_INVALID_ARG' || e.code === 'ERR_INVALID_URL') return new PlatformRequestError(e.message ?? 'Invalid URL', 'ERR_INVALID_URL', undefined, { cause: err });
  return new PlatformRequestError(e.message ?? String(err), e.code ?? 'ERR_REQUEST', undefined, { cause: err });
}
