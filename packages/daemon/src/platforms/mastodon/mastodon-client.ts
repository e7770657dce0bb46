import { isIP, type LookupFunction } from 'node:net';
import got, { type Got, type OptionsInit, type Response } from 'got';
import type { AddressGuard } from '../../net/address-guard';
import { parseJsonText } from '../shared/parse-json-text';
import { singleAttempt } from '../shared/single-attempt';
import { TransportError } from '../shared/transport-error';
import { wasSent } from '../shared/was-sent';

/** A Mastodon server answered with an error status: `{"error": "..."}` (422s also `details`). */
export class MastodonApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    readonly headers: Record<string, string | string[] | undefined>,
  ) {
    super(message);
    this.name = 'MastodonApiError';
  }
}

/** No answer arrived from the Mastodon server. */
export class MastodonTransportError extends TransportError {
  override name = 'MastodonTransportError';
}

export interface MastodonCall {
  method: 'GET' | 'POST' | 'DELETE';
  json?: unknown;
  multipart?: FormData;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface MastodonResponse<T> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | undefined>;
}

export interface MastodonClientOptions {
  /** The server's origin (`https://mastodon.social`), or the simulator's URL for sandbox connections. */
  baseUrl: string;
  /** The user's access token; none for app registration and the instance description. */
  token?: string;
  signal?: AbortSignal;
  /** Default per-request timeout. Default 60 s. */
  timeoutMs?: number;
  /**
   * Connect only to public addresses (live servers: any host a user names): every lookup
   * goes through the daemon's address guard, so a name that resolves to a private address
   * is refused before a socket opens. Off for the daemon's own simulator.
   */
  guard?: AddressGuard;
  http?: Got;
}

/** The code of a lookup the address guard refused: the server's name resolves to a private address. */
export const PRIVATE_ADDRESS = 'ESOCIALPUB_PRIVATE_ADDRESS';

/** A net lookup that answers only with addresses the guard accepts (and connects to exactly those). */
export function guardedLookup(guard: AddressGuard): LookupFunction {
  return ((hostname: string, options: { all?: boolean } | number, callback: (...args: unknown[]) => void) => {
    const all = typeof options === 'object' && options?.all === true;
    guard.resolveHost(hostname).then(
      (a) => (all ? callback(null, [{ address: a.address, family: a.family }]) : callback(null, a.address, a.family)),
      (err: Error & { code?: string }) => callback(Object.assign(err, { code: err.code === 'private_address' ? PRIVATE_ADDRESS : 'ENOTFOUND' })),
    );
  }) as LookupFunction;
}

/**
 * A thin Mastodon REST client over got: one request per call and no automatic retries
 * (retrying a POST /api/v1/statuses is the adapter's decision, with its Idempotency-Key);
 * errors come back as MastodonApiError / MastodonTransportError.
 */
export class MastodonClient {
  readonly #lookup: LookupFunction | undefined;

  constructor(private readonly options: MastodonClientOptions) {
    this.#lookup = options.guard ? guardedLookup(options.guard) : undefined;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  async request<T>(path: string, call: MastodonCall): Promise<MastodonResponse<T>> {
    const search = call.query ? `?${new URLSearchParams(call.query).toString()}` : '';
    const headers: Record<string, string> = { accept: 'application/json', ...(call.headers ?? {}) };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const opts: OptionsInit = { method: call.method, headers, ...singleAttempt(call.timeoutMs ?? this.options.timeoutMs ?? 60_000, this.options.signal) };
    if (this.#lookup) opts.dnsLookup = this.#lookup as OptionsInit['dnsLookup'];
    if (call.json !== undefined) opts.json = call.json;
    else if (call.multipart) opts.body = call.multipart;

    const guard = this.options.guard;
    const host = new URL(this.url(path)).hostname.replace(/^\[|\]$/g, '');
    if (guard && isIP(host)) {
      // A literal address is never looked up, so the lookup hook cannot check it: check it here.
      try {
        await guard.resolveHost(host);
      } catch (err) {
        throw new MastodonTransportError(`No answer from the Mastodon server (${call.method} ${path}): ${(err as Error).message}`, PRIVATE_ADDRESS, false, { cause: err });
      }
    }
    let res: Response<string>;
    try {
      res = (await (this.options.http ?? got)(this.url(path) + search, opts)) as Response<string>;
    } catch (err) {
      const code = (err as { code?: string }).code;
      // A refused address never left: nothing was sent.
      throw new MastodonTransportError(`No answer from the Mastodon server (${call.method} ${path}): ${(err as Error).message}`, code, code !== PRIVATE_ADDRESS && wasSent(err), { cause: err });
    }
    const { text, body } = parseJsonText(res.body);
    if (res.statusCode >= 200 && res.statusCode < 300) return { status: res.statusCode, body: (body ?? {}) as T, headers: res.headers };
    throw new MastodonApiError(res.statusCode, describeError(res.statusCode, body, text), body, res.headers);
  }
}

/** Mastodon's error body `{"error": "...", "error_description"?: "..."}`, or the text of a proxy's page. */
function describeError(status: number, body: unknown, text: string): string {
  const b = (body ?? {}) as { error?: unknown; error_description?: unknown };
  if (typeof b.error === 'string') return typeof b.error_description === 'string' ? `${b.error}: ${b.error_description}` : b.error;
  return text.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 300) || `HTTP ${status}`;
}
