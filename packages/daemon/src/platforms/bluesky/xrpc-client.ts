import got, { type Got, type OptionsInit, type Response } from 'got';
import { parseJsonText } from '../shared/parse-json-text';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { wasSent } from '../shared/was-sent';

/** An XRPC error answer: Bluesky's `{"error": "<Name>", "message": "…"}` with the HTTP status. */
export class BlueskyApiError extends Error {
  constructor(
    readonly status: number,
    /** The XRPC error name (`ExpiredToken`, `RecordNotFound`, `RateLimitExceeded`, `InvalidRequest`…), or null. */
    readonly error: string | null,
    message: string,
    readonly headers: Record<string, string | string[] | undefined>,
    /** The parsed answer (the video service adds fields such as `jobId` to its errors). */
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = 'BlueskyApiError';
  }
}

/** No answer arrived from the PDS or the video service. */
export class BlueskyTransportError extends TransportError {
  override name = 'BlueskyTransportError';
}

export interface XrpcResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface XrpcClientOptions {
  /** The PDS (or video service) origin: `https://bsky.social`, a self-hosted PDS, or the simulator. */
  baseUrl: string;
  /** The bearer token (an access JWT, a refresh JWT for refreshSession, a service token); null for none. */
  token: string | null;
  signal?: AbortSignal | undefined;
  /** Default per-request timeout. Default 60 s. */
  timeoutMs?: number | undefined;
  /** got instance (for a live PDS: one pinned to the checked address, see pds-access.ts). */
  http?: Got | undefined;
}

export interface XrpcCall {
  /** Query parameters (GET) or the procedure's query string; an array is the parameter repeated (getPosts' `uris`). */
  params?: Record<string, string | number | readonly string[] | undefined>;
  /** A procedure's JSON input. */
  json?: unknown;
  /** A procedure's raw input (uploadBlob, uploadVideo) and its content type. */
  bytes?: { data: Buffer; contentType: string };
  /** Overrides the client's token for this call. */
  token?: string | null;
  timeoutMs?: number;
}

/**
 * A thin XRPC client over got (`GET|POST <base>/xrpc/<nsid>`): one attempt, no redirects, errors
 * as BlueskyApiError / BlueskyTransportError. Never retries on its own: a retried
 * createRecord is safe only because the adapter chose its record key.
 */
export class XrpcClient {
  constructor(private options: XrpcClientOptions) {}

  setToken(token: string | null): void {
    this.options = { ...this.options, token };
  }

  get baseUrl(): string {
    return this.options.baseUrl.replace(/\/+$/, '');
  }

  query<T>(nsid: string, call: XrpcCall = {}): Promise<XrpcResponse<T>> {
    return this.#send<T>('GET', nsid, call);
  }

  procedure<T>(nsid: string, call: XrpcCall = {}): Promise<XrpcResponse<T>> {
    return this.#send<T>('POST', nsid, call);
  }

  async #send<T>(method: 'GET' | 'POST', nsid: string, call: XrpcCall): Promise<XrpcResponse<T>> {
    const params = Object.entries(call.params ?? {}).flatMap(([k, v]): [string, string][] => (v === undefined ? [] : Array.isArray(v) ? v.map((x: string): [string, string] => [k, x]) : [[k, String(v)]]));
    const search = params.length ? `?${new URLSearchParams(params).toString()}` : '';
    const url = `${this.baseUrl}/xrpc/${nsid}${search}`;
    const token = call.token === undefined ? this.options.token : call.token;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const opts: OptionsInit = { method, headers, ...singleAttempt(call.timeoutMs ?? this.options.timeoutMs ?? 60_000, this.options.signal) };
    if (call.json !== undefined) opts.json = call.json;
    else if (call.bytes) {
      opts.body = call.bytes.data;
      headers['content-type'] = call.bytes.contentType;
    }
    let res: Response<string>;
    try {
      res = (await (this.options.http ?? got)(url, opts)) as Response<string>;
    } catch (err) {
      const code = (err as { code?: string }).code;
      throw new BlueskyTransportError(`No answer from ${new URL(this.baseUrl).host} (${nsid}): ${(err as Error).message}`, code, wasSent(err), { cause: err });
    }
    const { text, body } = parseJsonText(res.body);
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, body: (body ?? {}) as T, headers: res.headers };
    const b = (body ?? {}) as { error?: unknown; message?: unknown };
    const name = typeof b.error === 'string' ? b.error : null;
    const message = typeof b.message === 'string' ? b.message : name ?? (text.slice(0, 300) || `HTTP ${res.statusCode}`);
    throw new BlueskyApiError(res.statusCode, name, message, res.headers, body ?? null);
  }
}
