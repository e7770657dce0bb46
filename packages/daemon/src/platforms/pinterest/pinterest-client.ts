import type { Got, OptionsInit } from 'got';
import type { Logger } from '../../util/logger';
import { exchangeJson } from '../shared/exchange-json';
import type { ResponseHeaders } from '../shared/response-header';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';

/** Pinterest answered with an error status. Its errors are `{"code": <number>, "message": "…"}` (Pinterest.Lib.Error). */
export class PinterestApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: number | null,
    readonly body: unknown,
    readonly headers: ResponseHeaders,
  ) {
    super(message);
    this.name = 'PinterestApiError';
  }
}

/** No answer arrived from Pinterest. */
export class PinterestTransportError extends TransportError {
  override name = 'PinterestTransportError';
}

export interface PinterestCall {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  json?: unknown;
  query?: Record<string, string>;
  timeoutMs?: number;
}

export interface PinterestResponse<T> {
  status: number;
  body: T;
  headers: ResponseHeaders;
}

export interface PinterestClientOptions {
  /** `https://api.pinterest.com`, or the simulator's URL for sandbox connections. */
  baseUrl: string;
  token: string;
  log?: Logger;
  signal?: AbortSignal;
  timeoutMs?: number;
  http?: Got;
}


/** A thin client of Pinterest's REST API v5 (`/v5/...`): bearer token, JSON, one attempt, no redirects. */
export class PinterestClient {
  constructor(private readonly options: PinterestClientOptions) {}

  setToken(token: string): void {
    (this.options as { token: string }).token = token;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async request<T>(path: string, call: PinterestCall): Promise<PinterestResponse<T>> {
    const search = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
    const opts: OptionsInit = {
      method: call.method,
      headers: { accept: 'application/json', authorization: `Bearer ${this.options.token}` },
      ...singleAttempt(call.timeoutMs ?? this.options.timeoutMs ?? 60_000, this.options.signal),
    };
    if (call.json !== undefined) opts.json = call.json;
    return this.exchange<T>(this.url(path) + search, opts, `${call.method} ${path}`);
  }

  /**
   * The video upload: a multipart POST to the upload URL POST /v5/media handed out, with
   * its upload_parameters as form fields and the file last (as S3's POST policy wants). No
   * token: the policy in the fields authorises it.
   */
  async uploadForm(url: string, fields: Record<string, string>, file: { bytes: Buffer; name: string; type: string }, timeoutMs = 600_000): Promise<PinterestResponse<unknown>> {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    const opts: OptionsInit = { method: 'POST', body: form, ...singleAttempt(timeoutMs, this.options.signal) };
    return this.exchange(url, opts, 'POST upload');
  }

  private async exchange<T>(url: string, opts: OptionsInit, what: string): Promise<PinterestResponse<T>> {
    const res = await exchangeJson(this.options.http, url, opts, PinterestTransportError, `No answer from Pinterest (${what}): `);
    const { text, body } = res;
    if (res.ok) return { status: res.status, body: (body ?? {}) as T, headers: res.headers };
    const b = (body ?? {}) as Record<string, unknown>;
    const message = typeof b.message === 'string' ? b.message : text.slice(0, 300) || `HTTP ${res.status}`;
    throw new PinterestApiError(res.status, message, typeof b.code === 'number' ? b.code : null, body, res.headers);
  }
}
