import { VERSION } from '@socialpub/core';
import type { AddressGuard } from './address-guard';
import { http1Get, type Http1Response } from './http1-get';
import { MediaError } from './media-error';

export const MAX_REDIRECTS = 5;

export interface SafeFetchOptions {
  guard: AddressGuard;
  signal: AbortSignal;
  /** Redirects still allowed for this download (default 5). */
  redirectsLeft?: number;
  /** Cookies set during this download, sent back to the host that set them (Drive's download_warning). */
  cookies?: CookieJar;
  /** No response headers within this time: fetch_failed. Default 30 s. */
  headersTimeoutMs?: number;
  /** No bytes for this long while reading: fetch_failed. Default 60 s. */
  idleTimeoutMs?: number;
}

export interface SafeResponse {
  /** The URL that answered (after redirects). */
  url: URL;
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: Http1Response;
  /** Redirects still allowed after this response. */
  redirectsLeft: number;
}

/** name=value pairs per host, for the duration of one download. */
export type CookieJar = Map<string, Map<string, string>>;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET over http(s) to public addresses only. Every hop is checked by the guard on its
 * resolved address *before* connecting, the connection is pinned to that address, and
 * redirects are followed here (never by the HTTP client), at most 5.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeResponse> {
  let url = parseHttpUrl(input);
  let redirectsLeft = options.redirectsLeft ?? MAX_REDIRECTS;
  for (;;) {
    options.signal.throwIfAborted();
    const res = await requestOnce(url, options);
    const location = res.headers.location;
    if (!REDIRECTS.has(res.status) || !location) {
      return { url, status: res.status, statusText: res.statusText, headers: res.headers, body: res, redirectsLeft };
    }
    res.destroy(); // a redirect's body is never read
    if (redirectsLeft <= 0) throw new MediaError('too_many_redirects', `more than ${MAX_REDIRECTS} redirects`);
    redirectsLeft--;
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new MediaError('invalid_url', `the source redirected to an invalid URL`);
    }
    url = parseHttpUrl(next.href);
  }
}

export function parseHttpUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new MediaError('invalid_url', 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new MediaError('unsupported_scheme', `refused to follow a ${url.protocol.replace(/:$/, '')} URL: only http and https`);
  }
  if (url.username || url.password) throw new MediaError('invalid_url', 'URLs with a user name or password are not accepted');
  return url;
}

async function requestOnce(url: URL, options: SafeFetchOptions): Promise<Http1Response> {
  // Checked (and possibly refused) before any socket exists.
  const target = await options.guard.resolveHost(url.hostname);
  options.signal.throwIfAborted();
  const headers: Record<string, string> = {
    'User-Agent': `socialpub/${VERSION} (media preparation)`,
    Accept: '*/*',
    'Accept-Encoding': 'identity',
  };
  const cookie = options.cookies?.get(url.hostname);
  if (cookie?.size) headers.Cookie = [...cookie].map(([k, v]) => `${k}=${v}`).join('; ');
  // Pinned: the socket connects to the checked address, whatever DNS would say now.
  const res = await http1Get(url, target, {
    headers,
    signal: options.signal,
    headersTimeoutMs: options.headersTimeoutMs ?? 30_000,
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
  });
  storeCookies(options.cookies, url.hostname, res.setCookies);
  return res;
}

function storeCookies(jar: CookieJar | undefined, host: string, setCookie: string[] | undefined): void {
  if (!jar || !setCookie) return;
  let cookies = jar.get(host);
  if (!cookies) jar.set(host, (cookies = new Map()));
  for (const line of setCookie) {
    const pair = line.split(';', 1)[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
  }
}
