import type { Got, OptionsInit } from 'got';
import { parseJsonText } from '../shared/parse-json-text';
import { platformRequest } from '../shared/platform-request';
import { singleAttempt } from '../shared/single-attempt';
import { wasSent } from '../shared/was-sent';

/** Default Graph API version (docs/reference/platforms.md §0.3: v20.0 expired 2026-09-24; docs use v25.0). */
export const DEFAULT_GRAPH_VERSION = 'v25.0';

/** The Graph error object every Meta product answers with (docs/reference/platforms.md §1.6). */
export interface GraphErrorBody {
  message: string;
  type?: string;
  code: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** The platform answered with an error status and (usually) a Graph error object. */
export class GraphApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: GraphErrorBody,
    readonly headers: Record<string, string | string[] | undefined> = {},
  ) {
    super(error.message);
    this.name = 'GraphApiError';
  }
}

/** No answer arrived (timeout, reset, refused): the request may or may not have been processed. */
export class GraphTransportError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    options: { cause?: unknown } = {},
    /** False only when the request certainly never left (DNS, refused, TLS handshake): see wasSent. */
    readonly sent = true,
  ) {
    super(message, options);
    this.name = 'GraphTransportError';
  }
}

export type Params = Record<string, string | number | boolean | null | undefined>;

export interface GraphCall {
  method?: 'GET' | 'POST' | 'DELETE';
  /** Query string on GET; form body on POST unless `body`/`multipart`/`query` is given. */
  params?: Params;
  /** Extra query parameters (POSTs that carry their parameters on the URL). */
  query?: Params;
  /** A raw body (rupload bytes). */
  body?: Buffer | NodeJS.ReadableStream;
  /** A multipart body (photos/videos `source`). */
  multipart?: FormData;
  headers?: Record<string, string>;
  /** Override the token for this call (rupload uses `OAuth <token>`). */
  authorization?: string | null;
}

export interface GraphClientOptions {
  /** `https://graph.facebook.com`, or the simulator's URL for sandbox connections. */
  baseUrl: string;
  /** `v25.0`; null for hosts whose paths carry no version (rupload URLs given whole). */
  version: string | null;
  token: string;
  /** How the token travels: `header` (Authorization: Bearer) or `param` (access_token, as Threads documents). */
  tokenIn?: 'header' | 'param';
  signal?: AbortSignal;
  /** Per-request timeout. Default 60 s. */
  timeoutMs?: number;
  /** A got instance (tests may pass one with hooks); default: platformRequest's keep-alive pool. */
  http?: Got;
}

const clean = (p: Params | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(p ?? {})) if (v !== undefined && v !== null) out[k] = String(v);
  return out;
};

/**
 * A thin Graph API client (platformRequest: undici's pool, got for multipart and streamed
 * bodies or an injected got): one request per call, no retries (the publisher owns
 * retries, and a retried publishing call could post twice), errors as typed values.
 */
export class GraphClient {
  #token: string;
  readonly #http: Got | undefined;

  constructor(readonly options: GraphClientOptions) {
    this.#token = options.token;
    this.#http = options.http;
  }

  /** After a token refresh, later calls use the new token. */
  setToken(token: string): void {
    this.#token = token;
  }

  get token(): string {
    return this.#token;
  }

  url(path: string): string {
    if (/^https?:\/\//.test(path)) return path;
    const base = this.options.baseUrl.replace(/\/+$/, '');
    const p = path.replace(/^\/+/, '');
    return this.options.version ? `${base}/${this.options.version}/${p}` : `${base}/${p}`;
  }

  async request<T = Record<string, unknown>>(path: string, call: GraphCall = {}): Promise<T> {
    const method = call.method ?? 'GET';
    const tokenIn = this.options.tokenIn ?? 'header';
    const params = clean(call.params);
    const query = clean(call.query);
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.authorization !== undefined) {
      if (call.authorization !== null) headers.authorization = call.authorization;
    } else if (tokenIn === 'header') headers.authorization = `Bearer ${this.#token}`;
    else if (method === 'GET' || call.body || call.multipart) query.access_token = this.#token;
    else params.access_token = this.#token;

    const opts: OptionsInit = {
      method,
      headers,
      ...singleAttempt(this.options.timeoutMs ?? 60_000, this.options.signal),
    };
    if (method === 'GET' || method === 'DELETE') Object.assign(query, params);
    else if (call.body) opts.body = call.body;
    else if (call.multipart) {
      for (const [k, v] of Object.entries(params)) call.multipart.set(k, v);
      opts.body = call.multipart;
    } else if (Object.keys(params).length > 0) opts.form = params;
    if (Object.keys(query).length > 0) opts.searchParams = query;

    let res: { statusCode: number; body: unknown; headers: Record<string, string | string[] | undefined> };
    try {
      res = await platformRequest(this.#http, this.url(path), opts);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new GraphTransportError(`No answer from ${new URL(this.url(path)).host}: ${(err as Error).message}`, code, { cause: err }, wasSent(err));
    }
    const { text, body } = parseJsonText(res.body);
    if (res.statusCode >= 200 && res.statusCode < 300 && body !== undefined) return body as T;
    throw new GraphApiError(res.statusCode, toGraphError(res.statusCode, body, text), res.headers);
  }
}

/** Normalises the several error shapes Meta hosts use into the Graph error object. */
function toGraphError(status: number, body: unknown, text: string): GraphErrorBody {
  const b = (body ?? {}) as Record<string, unknown>;
  if (b.error && typeof b.error === 'object') {
    const e = b.error as Record<string, unknown>;
    return { ...(e as unknown as GraphErrorBody), message: String(e.message ?? 'Unknown error'), code: Number(e.code ?? 0) };
  }
  // Threads/Instagram OAuth endpoints: {"error_type","code","error_message"}
  if (typeof b.error_message === 'string') return { message: b.error_message, type: String(b.error_type ?? 'OAuthException'), code: Number(b.code ?? status) };
  // rupload: {"debug_info":{"retriable","type","message"}}
  if (b.debug_info && typeof b.debug_info === 'object') {
    const d = b.debug_info as Record<string, unknown>;
    return { message: String(d.message ?? d.type), type: String(d.type ?? 'UploadError'), code: status, is_transient: Boolean(d.retriable) };
  }
  return { message: text.slice(0, 300) || `HTTP ${status}`, code: status >= 500 ? 2 : status, is_transient: status >= 500 };
}
