import type { Context, MiddlewareHandler } from 'hono';
import type { Clock } from '../../../util/clock';
import { dropConnection } from '../drop-connection';
import { noteMadePost } from './made-in-request';
import type { PostRemovalSink, SimulatedPost } from './sandbox-post-sink';

/**
 * What the X, TikTok and YouTube simulators share: a record of every request and
 * response, a record of every post, and fault injection.
 */

export interface RecordedRequest {
  /** `api.x.com`, `open.tiktokapis.com`, ... */
  host: string;
  method: string;
  /** Path below the host root (without any sandbox mount prefix). */
  path: string;
  query: Record<string, string>;
  /** Lower-cased request headers (authorization redacted to its scheme). */
  headers: Record<string, string>;
  /** The parsed request body as the handler understood it (JSON, form fields, or a byte summary). */
  body?: unknown;
  /** Content type the request arrived with. */
  contentType: string | null;
  status: number;
  responseHeaders: Record<string, string>;
  /** Parsed JSON response (undefined for empty or non-JSON bodies). */
  responseBody?: unknown;
  at: number;
}

/**
 * A fault to inject into matching requests (`times` requests, default 1).
 * - `respond`: answer with `status`/`body`/`headers` instead of running the handler.
 * - `latency`: wait `delayMs` on the simulator's clock, then run normally.
 * - `hang-after`: run the handler (the post is made), then never answer until the client gives up.
 * - `reset-after`: run the handler, then drop the connection without an answer.
 * - `cut`: upload endpoints only: keep the first `cutAtBytes` of the whole file, then drop the connection.
 */
export interface Fault {
  method?: string;
  /** Matches the path below the host root: exact string or a RegExp. */
  path: string | RegExp;
  kind: 'respond' | 'latency' | 'hang-after' | 'reset-after' | 'cut';
  times?: number;
  /** Let this many matching requests through untouched first. */
  skip?: number;
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
  cutAtBytes?: number;
}

export interface SimulatorOptions {
  clock: Clock;
  /** Called for every post made (the daemon persists them into sandbox_posts). */
  onPost?: (post: SimulatedPost) => void;
  /** Called for every post deleted (the daemon marks it removed in sandbox_posts). */
  onRemove?: PostRemovalSink;
}

/** The most requests a simulator keeps in memory (the latest; tests read them, nothing else does). */
export const KEPT_REQUESTS = 5_000;
/** The most posts a simulator keeps in memory (the latest; every post is in sandbox_posts too). */
export const KEPT_POSTS = 10_000;

/**
 * Appends to a simulator's in-memory record, keeping the latest `max`: a daemon's simulators
 * run for months, and an unbounded record held every request and body they ever answered
 * (and made the garbage collector walk it). Trimmed in steps of a quarter, so it costs
 * nothing per call.
 */
export function keepLatest<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max + (max >> 2)) list.splice(0, list.length - max);
}

/** Shared bookkeeping; each simulator owns one. */
export class SimulatorLog {
  readonly requests: RecordedRequest[] = [];
  readonly posts: SimulatedPost[] = [];
  readonly #faults: Array<Fault & { left: number; toSkip: number }> = [];

  constructor(
    private readonly onPost?: (post: SimulatedPost) => void,
    private readonly onRemove?: PostRemovalSink,
  ) {}

  inject(fault: Fault): void {
    this.#faults.push({ ...fault, left: fault.times ?? 1, toSkip: fault.skip ?? 0 });
  }

  clearFaults(): void {
    this.#faults.length = 0;
  }

  /** Takes (consumes one use of) the first fault matching this request. */
  takeFault(method: string, path: string, kinds?: Fault['kind'][]): Fault | null {
    const f = this.#faults.find(
      (x) =>
        x.left > 0 &&
        (!x.method || x.method.toUpperCase() === method) &&
        (typeof x.path === 'string' ? x.path === path : x.path.test(path)) &&
        (!kinds || kinds.includes(x.kind)),
    );
    if (!f) return null;
    if (f.toSkip > 0) {
      f.toSkip -= 1;
      return null;
    }
    f.left -= 1;
    return f;
  }

  addPost(post: SimulatedPost): void {
    keepLatest(this.posts, post, KEPT_POSTS);
    this.onPost?.(post);
    // The sandbox's fault stage loses the answer of a call that made a post ("made but unanswered").
    noteMadePost();
  }

  /** A post the simulator deleted: marked removed here and in sandbox_posts. */
  removePost(platform: SimulatedPost['platform'], postId: string, at: number): void {
    for (const p of this.posts) if (p.platform === platform && p.postId === postId && !p.removedAt) p.removedAt = at;
    this.onRemove?.(platform, postId, at);
  }

  /** Requests to one path (below the host root), in order. */
  to(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }
}

const RECORD = new WeakMap<Request, RecordedRequest>();

/** The record of the current request (handlers attach the body they parsed). */
export function recordOf(c: Context): RecordedRequest | undefined {
  return RECORD.get(c.req.raw);
}

/**
 * Path of the request below the simulated host's root, however the simulator is mounted
 * (`/sandbox/api.x.com/2/tweets` in the daemon, `/api.x.com/2/tweets` in tests, or bare).
 */
export function hostPath(c: Context, host: string): string {
  const path = c.req.path;
  const marker = `/${host}`;
  const i = path.indexOf(marker + '/');
  if (i >= 0) return path.slice(i + marker.length);
  return path.endsWith(marker) ? '/' : path;
}

/** The absolute URL of the simulated host's root (for upload URLs and Location headers it hands out). */
export function selfBase(c: Context, host: string): string {
  const url = new URL(c.req.url);
  const rest = hostPath(c, host);
  const prefix = url.pathname.endsWith(rest) ? url.pathname.slice(0, url.pathname.length - rest.length) : '';
  return `${url.origin}${prefix}`;
}

const KEPT_HEADERS = ['content-type', 'content-length', 'content-range', 'x-upload-content-length', 'x-upload-content-type', 'idempotency-key'];

/**
 * Records every request and response and applies `respond`/`latency`/`hang-after`/
 * `reset-after` faults. (`cut` is applied by the upload handlers, which read the body.)
 */
export function recorder(host: string, log: SimulatorLog, clock: Clock): MiddlewareHandler {
  return async function recordRequest(c, next) {
    const path = hostPath(c, host);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const v = c.req.header(name);
      if (v !== undefined) headers[name] = v;
    }
    const auth = c.req.header('authorization');
    if (auth) headers.authorization = `${auth.split(' ')[0]} …`;
    const rec: RecordedRequest = {
      host,
      method: c.req.method,
      path,
      query: Object.fromEntries(new URL(c.req.url).searchParams),
      headers,
      contentType: c.req.header('content-type') ?? null,
      status: 0,
      responseHeaders: {},
      at: clock.now(),
    };
    RECORD.set(c.req.raw, rec);
    keepLatest(log.requests, rec, KEPT_REQUESTS);
    rec.body = await summarizeBody(c);

    const fault = log.takeFault(c.req.method, path, ['respond', 'latency', 'hang-after', 'reset-after']);
    if (fault?.kind === 'latency') await clock.sleep(fault.delayMs ?? 0);
    if (fault?.kind === 'respond') {
      const status = fault.status ?? 500;
      const h = new Headers(fault.headers ?? {});
      if (!h.has('content-type')) h.set('content-type', 'application/json');
      c.res = new Response(fault.body === undefined ? null : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body), { status, headers: h });
    } else {
      await next();
    }
    rec.status = c.res.status;
    c.res.headers.forEach((v, k) => (rec.responseHeaders[k] = v));
    const ct = c.res.headers.get('content-type') ?? '';
    if (ct.includes('json')) {
      try {
        rec.responseBody = await c.res.clone().json();
      } catch {
        rec.responseBody = undefined;
      }
    }
    if (fault?.kind === 'reset-after') {
      rec.status = -1;
      if (dropConnection(c)) return;
      c.res = new Response(null, { status: 502 });
    }
    if (fault?.kind === 'hang-after') {
      rec.status = -1;
      // The post is made; the answer never comes. Wait for the client to give up.
      await new Promise<void>((resolve) => {
        const signal = c.req.raw.signal;
        if (signal.aborted) return resolve();
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      dropConnection(c);
    }
  };
}

/** Form fields never kept in the record. */
const REDACT = new Set(['client_secret', 'code_verifier']);

/** The request body as recorded: parsed JSON or form fields (files as `<n bytes>`); raw bodies are left to their handlers. */
async function summarizeBody(c: Context): Promise<unknown> {
  const type = c.req.header('content-type') ?? '';
  try {
    if (type.includes('application/json')) return await c.req.json();
    if (type.includes('multipart/form-data') || type.includes('application/x-www-form-urlencoded')) {
      const form = await c.req.parseBody();
      return Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v instanceof File ? `<${v.size} bytes>` : REDACT.has(k) ? '…' : v]));
    }
  } catch {
    return '<unparseable body>';
  }
  return undefined;
}
