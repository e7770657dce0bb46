import { createHash, randomBytes } from 'node:crypto';
import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import { isLoopbackRedirect, runLoopbackOAuth } from '../../oauth/loopback-oauth';
import { authorizeByPaste } from '../../oauth/paste-oauth';
import type { Clock } from '../../util/clock';

/** What an authorize URL is built from. */
export interface AuthorizeRequest {
  redirectUri: string;
  state: string;
  /** S256 challenge (base64url of SHA-256 of the verifier). */
  codeChallenge: string;
}

export interface AuthorizeResult {
  code: string;
  redirectUri: string;
  codeVerifier: string;
  params: Record<string, string>;
}

/**
 * OAuth 2.0 authorization code with PKCE (S256) for the X, TikTok and Google connect
 * flows. A loopback redirect URI (`http://127.0.0.1:<port>/<path>`; port 0 = any free
 * port, which Google desktop clients accept) is served by runLoopbackOAuth; any other
 * redirect URI (TikTok web apps must use https) switches to paste mode (authorizeByPaste).
 */
export async function authorizeWithPkce(options: {
  redirectUri: string;
  buildUrl: (req: AuthorizeRequest) => string;
  io: ConnectIO;
  clock: Clock;
  timeoutMs?: number;
}): Promise<AuthorizeResult> {
  let u: URL;
  try {
    u = new URL(options.redirectUri);
  } catch {
    throw new ConnectError(`The redirect URI ${options.redirectUri} is not a URL`);
  }
  if (isLoopbackRedirect(u) && !options.io.receivesRedirect) {
    const anyPort = u.port === '0';
    options.io.print(`Opening the browser to authorize socialpub${anyPort ? '' : `; the app must list ${options.redirectUri} as a redirect URI`}.`);
    const res = await runLoopbackOAuth({
      authorizeUrl: (p) => options.buildUrl({ redirectUri: anyPort ? p.redirectUri : options.redirectUri, state: p.state, codeChallenge: p.codeChallenge as string }),
      redirectPath: u.pathname,
      port: Number(u.port || 80),
      pkce: true,
      openBrowser: options.io.openBrowser,
      clock: options.clock,
      timeoutMs: options.timeoutMs,
    });
    return { code: res.code, redirectUri: anyPort ? res.redirectUri : options.redirectUri, codeVerifier: res.codeVerifier as string, params: res.params };
  }
  const codeVerifier = randomBytes(48).toString('base64url');
  const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
  const { code, params } = await authorizeByPaste(options.io, (state) => options.buildUrl({ redirectUri: options.redirectUri, state, codeChallenge }));
  return { code, redirectUri: options.redirectUri, codeVerifier, params };
}
