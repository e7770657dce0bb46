import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { VERSION } from '@socialpub/core';
import type { AddressGuard } from './address-guard';
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
  headers: IncomingHttpHeaders;
  body: IncomingMessage;
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
    if (!REDIRECTS.has(res.statusCode ?? 0) || !location) {
      return { url, status: res.statusCode ?? 0, headers: res.headers, body: res, redirectsLeft };
    }
    res.destroy(); // a redirect's body is never read
    if (redirectsLeft <= 0) throw new MediaError('too_many_redirects', `more than ${options.redirectsLeft ?? MAX_REDIRECTS} redirects`);
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

async function requestOnce(url: URL, options: SafeFetchOptions): Promise<IncomingMessage> {
  // Checked (and possibly refused) before any socket exists.
  const target = await options.guard.resolveHost(url.hostname);
  options.signal.throwIfAborted();
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const isName = hostname !== target.address && !/^[\d.]+$/.test(hostname) && !hostname.includes(':');
  // Pinned: the socket connects to the checked address, whatever DNS would say now.
  const lookup: LookupFunction = (_name, opts, cb) => {
    if (opts.all) (cb as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const headers: Record<string, string> = {
    'user-agent': `socialpub/${VERSION} (media preparation)`,
    accept: '*/*',
    'accept-encoding': 'identity',
  };
  const cookie = options.cookies?.get(url.hostname);
  if (cookie?.size) headers.cookie = [...cookie].map(([k, v]) => `${k}=${v}`).join('; ');
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const req = mod.request({
      protocol: url.protocol,
      host: isName ? hostname : target.address,
      family: target.family,
      port: url.port || undefined,
      path: url.pathname + url.search,
      method: 'GET',
      headers,
      agent: false,
      lookup: isName ? lookup : undefined,
      servername: url.protocol === 'https:' && isName ? hostname : undefined,
      signal: options.signal,
    });
    const headersTimer = setTimeout(() => req.destroy(new MediaError('fetch_failed', `${url.host} sent no answer within ${(options.headersTimeoutMs ?? 30_000) / 1000} s`)), options.headersTimeoutMs ?? 30_000);
    req.once('response', (res) => {
      clearTimeout(headersTimer);
      storeCookies(options.cookies, url.hostname, res.headers['set-cookie']);
      const idle = options.idleTimeoutMs ?? 60_000;
      res.socket.setTimeout(idle, () => res.destroy(new MediaError('fetch_failed', `${url.host} stalled: no data for ${idle / 1000} s`)));
      resolve(res);
    });
    req.once('error', (err) => {
      clearTimeout(headersTimer);
      if (options.signal.aborted) reject(options.signal.reason);
      else if (err instanceof MediaError) reject(err);
      else reject(new MediaError('fetch_failed', `could not fetch from ${url.host}: ${(err as NodeJS.ErrnoException).code ?? err.message}`, { cause: err }));
    });
    req.end();
  });
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
