import { createHash, randomBytes } from 'node:crypto';
import { ConnectError, type ConnectIO } from '../../connect/meta-connect';
import { OAuthFlowError, runLoopbackOAuth } from '../../connect/loopback-oauth';
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

const isLoopback = (u: URL) => u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost' || u.hostname === '[::1]');

/**
 * OAuth 2.0 authorization code with PKCE (S256) for the X, TikTok and Google connect
 * flows. A loopback redirect URI (`http://127.0.0.1:<port>/<path>`; port 0 = any free
 * port, which Google desktop clients accept) is served by engineer D's runLoopbackOAuth;
 * any other redirect URI (TikTok web apps must use https) switches to paste mode, where
 * the user pastes the address the browser landed on and the state is checked here.
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
  if (isLoopback(u)) {
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
  const state = randomBytes(24).toString('base64url');
  const codeVerifier = randomBytes(48).toString('base64url');
  const codeChallenge = createHash('sha256').update(codeVerifier).digest('base64url');
  await options.io.openBrowser(options.buildUrl({ redirectUri: options.redirectUri, state, codeChallenge }));
  const pasted = (await options.io.prompt('After authorizing, paste the full URL the browser was sent to')).trim();
  let back: URL;
  try {
    back = new URL(pasted);
  } catch {
    throw new ConnectError('That is not a URL; run connect again and paste the whole address from the browser bar');
  }
  const params = Object.fromEntries(back.searchParams);
  if (params.state !== state) throw new OAuthFlowError('The pasted URL belongs to another sign-in attempt (state mismatch)', 'state_mismatch');
  if (params.error) throw new OAuthFlowError(`Authorization refused: ${params.error_description ?? params.error}`, 'denied');
  if (!params.code) throw new OAuthFlowError('The pasted URL carries no authorization code', 'no_code');
  return { code: params.code, redirectUri: options.redirectUri, codeVerifier, params };
}
