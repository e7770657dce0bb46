import type { Got, OptionsInit } from 'got';
import { parseJsonText } from '../shared/parse-json-text';
import { platformRequest, type PlatformAnswer } from '../shared/platform-request';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { wasSent } from '../shared/was-sent';
import { oauth1Header, type OAuth1Keys } from './oauth1';

/** How requests are authorised: an OAuth 2.0 user token, or OAuth 1.0a user-context keys. */
export type XAuth = { kind: 'oauth2'; token: string } | { kind: 'oauth1'; keys: OAuth1Keys };

/** X answered with an error status (problem details, or the older `{code,message}` / `errors[]` shapes). */
export class XApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    readonly headers: Record<string, string | string[] | undefined>,
    /** The problem `type` URI or title, when there is one. */
    readonly problemType: string | null,
  ) {
    super(message);
    this.name = 'XApiError';
  }
}

/** No answer arrived from X. */
export class XTransportError extends TransportError {
  override name = 'XTransportError';
}

export interface XCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  multipart?: FormData;
  query?: Record<string, string>;
  /** Per-call timeout (ms); defaults to the client's. */
  timeoutMs?: number;
}

export interface XResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface XClientOptions {
  /** `https://api.x.com`, or the simulator's URL for sandbox connections. */
  baseUrl: string;
  auth: XAuth;
  signal?: AbortSignal;
  /** Default per-request timeout. Default 60 s (uploads of 1 MB chunks fit easily). */
  timeoutMs?: number;
  http?: Got;
}

/**
 * A thin X API v2 client (platformRequest: undici's pool, got for multipart uploads or an
 * injected got): one request per call and no automatic retries (a
 * retried POST /2/tweets could post twice); errors come back as XApiError / XTransportError.
 */
export class XClient {
  constructor(private readonly options: XClientOptions) {}

  setAuth(auth: XAuth): void {
    (this.options as { auth: XAuth }).auth = auth;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async request<T>(path: string, call: XCall): Promise<XResponse<T>> {
    const search = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
    const url = this.url(path) + search;
    const auth = this.options.auth;
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: auth.kind === 'oauth2' ? `Bearer ${auth.token}` : oauth1Header(call.method, url, auth.keys),
    };
    const opts: OptionsInit = {
      method: call.method,
      headers,
      ...singleAttempt(call.timeoutMs ?? this.options.timeoutMs ?? 60_000, this.options.signal),
    };
    if (call.json !== undefined) opts.json = call.json;
    else if (call.multipart) opts.body = call.multipart;

    let res: PlatformAnswer;
    try {
      res = await platformRequest(this.options.http, url, opts);
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new XTransportError(`No answer from X (${call.method} ${path}): ${(err as Error).message}`, code, wasSent(err), { cause: err });
    }
    const { text, body } = parseJsonText(res.body);
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, body: (body ?? {}) as T, headers: res.headers };
    const { message, type } = describeXError(res.statusCode, body, text);
    throw new XApiError(res.statusCode, message, body, res.headers, type);
  }
}

/**
 * X's error bodies: problem details `{title, detail, type, status}` (v2), the older
 * `{code, message}` / `{errors:[{code,message}]}` (v1.1 and some gateways), or text.
 */
export function describeXError(status: number, body: unknown, text: string): { message: string; type: string | null } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.detail === 'string' || typeof b.title === 'string') {
    const type = typeof b.type === 'string' && b.type !== 'about:blank' ? b.type : typeof b.title === 'string' ? b.title : null;
    // A generic detail often comes with the specific reasons in errors[] ("The Tweet contains an invalid URL.").
    const reasons = Array.isArray(b.errors) ? (b.errors as Array<Record<string, unknown>>).map((e) => String(e.message ?? e.detail ?? '')).filter(Boolean) : [];
    return { message: [String(b.detail ?? b.title), ...reasons].join(' '), type };
  }
  if (typeof b.message === 'string') return { message: b.message, type: null };
  const errors = Array.isArray(b.errors) ? (b.errors as Array<Record<string, unknown>>) : [];
  if (errors[0]) return { message: String(errors[0].detail ?? errors[0].message ?? errors[0].title ?? 'Unknown error'), type: typeof errors[0].type === 'string' ? errors[0].type : null };
  return { message: text.slice(0, 300) || `HTTP ${status}`, type: null };
}
