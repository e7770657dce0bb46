import type { Got, OptionsInit } from 'got';
import type { Clock } from '../../util/clock';
import type { Logger } from '../../util/logger';
import { exchangeJson } from '../shared/exchange-json';
import type { ResponseHeaders } from '../shared/response-header';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { NoActiveVersionError, PinnedVersionRetiredError, newerCandidates, type LinkedinVersions } from './api-version';

/**
 * LinkedIn answered with an error status. Its REST errors are
 * `{"status":426,"code":"NONEXISTENT_VERSION","message":"Requested version 202411 is not active"}`
 * (`serviceErrorCode` on most, `code` on some); OAuth errors are `{error, error_description}`.
 */
export class LinkedinApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | null,
    readonly serviceErrorCode: number | null,
    readonly body: unknown,
    readonly headers: ResponseHeaders,
  ) {
    super(message);
    this.name = 'LinkedinApiError';
  }
}

/** No answer arrived from LinkedIn. */
export class LinkedinTransportError extends TransportError {
  override name = 'LinkedinTransportError';
}

export interface LinkedinCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  json?: unknown;
  /** Query parameters, encoded as Rest.li 2.0 wants them (URNs percent-encoded). */
  query?: Record<string, string>;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface LinkedinResponse<T> {
  status: number;
  body: T;
  headers: ResponseHeaders;
}

export interface LinkedinClientOptions {
  /** `https://api.linkedin.com`, or the simulator's URL for sandbox connections. */
  baseUrl: string;
  token: string;
  versions: LinkedinVersions;
  clock: Clock;
  log?: Logger;
  signal?: AbortSignal;
  timeoutMs?: number;
  http?: Got;
}


const isRetiredVersion = (err: unknown) => err instanceof LinkedinApiError && err.status === 426 && (err.code === 'NONEXISTENT_VERSION' || /not active|version/i.test(err.message));

/**
 * A thin client of LinkedIn's versioned REST API (`/rest/...`, plus `/v2/userinfo`): every
 * call carries `Linkedin-Version` and `X-Restli-Protocol-Version: 2.0.0`, one attempt, no
 * redirects. A 426 NONEXISTENT_VERSION (nothing was done) steps forward to the newest
 * active version and repeats the call with it, unless the version is pinned.
 */
export class LinkedinClient {
  constructor(private readonly options: LinkedinClientOptions) {}

  setToken(token: string): void {
    (this.options as { token: string }).token = token;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async request<T>(path: string, call: LinkedinCall): Promise<LinkedinResponse<T>> {
    const { versions, clock } = this.options;
    const version = versions.current(clock.now());
    try {
      return await this.send<T>(path, call, version);
    } catch (err) {
      if (!isRetiredVersion(err)) throw err;
      if (versions.pinned) throw new PinnedVersionRetiredError(version);
      // A 426 did nothing: the same call again with each newer version, newest first.
      const tried: string[] = [];
      for (const candidate of newerCandidates(version, clock.now())) {
        tried.push(candidate);
        try {
          const res = await this.send<T>(path, call, candidate);
          this.stepped(version, candidate);
          return res;
        } catch (next) {
          if (isRetiredVersion(next)) continue;
          if (next instanceof LinkedinApiError || (next instanceof LinkedinTransportError && next.sent)) this.stepped(version, candidate);
          throw next;
        }
      }
      throw new NoActiveVersionError(version, tried);
    }
  }

  private stepped(from: string, to: string): void {
    this.options.versions.stepForward(from, to, this.options.clock.now());
    this.options.log?.warn('LinkedIn retired an API version; stepped forward to the newest active one', { platform: 'linkedin', retired_version: from, version: to });
  }

  private async send<T>(path: string, call: LinkedinCall, version: string): Promise<LinkedinResponse<T>> {
    const search = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
    const opts: OptionsInit = {
      method: call.method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${this.options.token}`,
        'linkedin-version': version,
        'x-restli-protocol-version': '2.0.0',
        ...(call.headers ?? {}),
      },
      ...singleAttempt(call.timeoutMs ?? this.options.timeoutMs ?? 60_000, this.options.signal),
    };
    if (call.json !== undefined) opts.json = call.json;
    return this.exchange<T>(this.url(path) + search, opts, `${call.method} ${path}`);
  }

  /** PUTs bytes to an upload URL LinkedIn handed out (with the token, as LinkedIn's examples do). */
  async upload(url: string, bytes: Buffer, contentType: string, timeoutMs = 300_000): Promise<LinkedinResponse<unknown>> {
    const opts: OptionsInit = {
      method: 'PUT',
      headers: { authorization: `Bearer ${this.options.token}`, 'content-type': contentType },
      body: bytes,
      ...singleAttempt(timeoutMs, this.options.signal),
    };
    return this.exchange(url, opts, 'PUT upload');
  }

  private async exchange<T>(url: string, opts: OptionsInit, what: string): Promise<LinkedinResponse<T>> {
    const res = await exchangeJson(this.options.http, url, opts, LinkedinTransportError, `No answer from LinkedIn (${what}): `);
    const { text, body } = res;
    if (res.ok) return { status: res.status, body: (body ?? {}) as T, headers: res.headers };
    const b = (body ?? {}) as Record<string, unknown>;
    const message = typeof b.message === 'string' ? b.message : typeof b.error_description === 'string' ? b.error_description : text.slice(0, 300) || `HTTP ${res.status}`;
    const code = typeof b.code === 'string' ? b.code : typeof b.error === 'string' ? b.error : null;
    const service = typeof b.serviceErrorCode === 'number' ? b.serviceErrorCode : null;
    throw new LinkedinApiError(res.status, message, code, service, body, res.headers);
  }
}
