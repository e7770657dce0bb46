import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { systemClock, type Clock } from '../util/clock';

/** What the provider's authorize URL is built from. */
export interface AuthorizeParams {
  /** `http://127.0.0.1:<port><redirectPath>`: register this (or its host and path) as the app's redirect URI. */
  redirectUri: string;
  state: string;
  /** PKCE S256 challenge, present when `pkce` is on. */
  codeChallenge?: string;
  codeChallengeMethod?: 'S256';
}

export interface LoopbackOAuthOptions {
  /** Builds the provider's authorize URL for this attempt. */
  authorizeUrl(params: AuthorizeParams): string;
  /** Path the provider redirects back to. Default `/callback`. */
  redirectPath?: string;
  /** The anti-CSRF state; default 32 random bytes, base64url. */
  state?: string;
  /** Generate a PKCE verifier and S256 challenge (X, TikTok, Google). Default false (Meta has no PKCE). */
  pkce?: boolean;
  /** Opens the URL in the user's browser, or prints it; the CLI decides. */
  openBrowser(url: string): void | Promise<void>;
  /** Give up after this long without a valid redirect. Default 5 minutes. */
  timeoutMs?: number;
  /**
   * Port to listen on; default 0 (a free one). Providers that need an exact registered
   * redirect URI (Meta apps do) need a fixed port.
   */
  port?: number;
  /** Time source for the timeout (tests pass a ManualClock). */
  clock?: Clock;
  signal?: AbortSignal;
}

export interface LoopbackOAuthResult {
  code: string;
  state: string;
  redirectUri: string;
  /** The PKCE verifier to send with the code exchange, when `pkce` was on. */
  codeVerifier?: string;
  /** Every query parameter of the redirect (some providers add scopes or ids). */
  params: Record<string, string>;
}

/** The provider or the user refused, or the redirect did not match this attempt. */
export class OAuthFlowError extends Error {
  constructor(
    message: string,
    readonly reason: 'denied' | 'state_mismatch' | 'timeout' | 'aborted' | 'no_code',
  ) {
    super(message);
    this.name = 'OAuthFlowError';
  }
}

/**
 * Whether runLoopbackOAuth can serve this redirect URI: plain http to 127.0.0.1 or
 * localhost (it listens on 127.0.0.1 only, so `[::1]` and other hosts need paste mode).
 */
export function isLoopbackRedirect(uri: URL): boolean {
  return uri.protocol === 'http:' && (uri.hostname === '127.0.0.1' || uri.hostname === 'localhost');
}

/**
 * Runs an OAuth authorization-code flow with a loopback redirect (RFC 8252): listens on
 * 127.0.0.1 only, opens the browser at the provider, and resolves with the code once the
 * provider redirects back with the right `state`. Wrong-state redirects are answered 400
 * and ignored (they are not ours, or forged) so a stray request cannot end the flow.
 */
export async function runLoopbackOAuth(options: LoopbackOAuthOptions): Promise<LoopbackOAuthResult> {
  const redirectPath = options.redirectPath ?? '/callback';
  const state = options.state ?? randomBytes(32).toString('base64url');
  const clock = options.clock ?? systemClock;
  const timeoutMs = options.timeoutMs ?? 5 * 60_000;
  const codeVerifier = options.pkce ? randomBytes(48).toString('base64url') : undefined;
  const codeChallenge = codeVerifier ? createHash('sha256').update(codeVerifier).digest('base64url') : undefined;

  let settle!: { resolve: (r: LoopbackOAuthResult) => void; reject: (e: Error) => void };
  const done = new Promise<LoopbackOAuthResult>((resolve, reject) => (settle = { resolve, reject }));
  // The redirect may settle the flow while openBrowser is still running; it is awaited below.
  done.catch(() => {});
  let redirectUri = '';

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== redirectPath) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      return;
    }
    const params = Object.fromEntries(url.searchParams);
    if (params.state !== state) {
      res.writeHead(400, { 'content-type': 'text/plain; charset=utf-8' }).end('This sign-in link does not belong to the running socialpub connect. Start it again.');
      return;
    }
    if (params.error) {
      const why = params.error_description ?? params.error_reason ?? params.error;
      page(res, 400, 'Not connected', `The platform answered: ${why}. You can close this tab.`);
      settle.reject(new OAuthFlowError(`Authorization refused: ${why}`, 'denied'));
      return;
    }
    // Meta appends "#_" to redirects; browsers keep fragments client-side, but a pasted URL may carry it.
    const code = params.code?.replace(/#_$/, '');
    if (!code) {
      page(res, 400, 'Not connected', 'The redirect carried no authorization code. You can close this tab.');
      settle.reject(new OAuthFlowError('The redirect carried no authorization code', 'no_code'));
      return;
    }
    page(res, 200, 'Connected', 'socialpub received the authorization. You can close this tab and return to the terminal.');
    settle.resolve({ code, state, redirectUri, params, ...(codeVerifier ? { codeVerifier } : {}) });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const timeout = new AbortController();
  try {
    const { port } = server.address() as AddressInfo;
    redirectUri = `http://127.0.0.1:${port}${redirectPath}`;
    const authorizeParams: AuthorizeParams = { redirectUri, state };
    if (codeChallenge) Object.assign(authorizeParams, { codeChallenge, codeChallengeMethod: 'S256' });
    clock.sleep(timeoutMs, timeout.signal).then(
      () => settle.reject(new OAuthFlowError(`No authorization arrived within ${Math.round(timeoutMs / 1000)} s`, 'timeout')),
      () => {},
    );
    const onAbort = () => settle.reject(new OAuthFlowError('Connect was cancelled', 'aborted'));
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    await options.openBrowser(options.authorizeUrl(authorizeParams));
    try {
      return await done;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
  } finally {
    timeout.abort();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  res
    .writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
    .end(`<!doctype html><meta charset="utf-8"><title>socialpub: ${title}</title><h1>${title}</h1><p>${escapeHtml(text)}</p>`);
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
