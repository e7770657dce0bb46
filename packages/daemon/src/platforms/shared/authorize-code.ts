import { ConnectError } from '../../oauth/connect-error';
import type { ConnectIO } from '../../oauth/connect-io';
import { isLoopbackRedirect, runLoopbackOAuth } from '../../oauth/loopback-oauth';
import { authorizeByPaste } from '../../oauth/paste-oauth';
import type { Clock } from '../../util/clock';

/**
 * OAuth 2.0 authorization code without PKCE (the LinkedIn and Pinterest connect flows; with
 * PKCE see authorize-with-pkce.ts). A loopback redirect URI (`http://127.0.0.1:<port>/<path>`;
 * port 0 = any free port) is served by runLoopbackOAuth; any other switches to paste mode
 * (authorizeByPaste). Answers the code and the redirect URI it was issued for (which the
 * token exchange must repeat).
 */
export async function authorizeCode(options: {
  redirectUri: string;
  buildUrl: (p: { redirectUri: string; state: string }) => string;
  /** How the app registers its redirect URI, said when opening the browser: e.g. "the Pinterest app must list <uri> as a redirect URI". */
  registration: (redirectUri: string) => string;
  io: ConnectIO;
  clock: Clock;
  timeoutMs?: number;
}): Promise<{ code: string; redirectUri: string }> {
  const { redirectUri, buildUrl, io } = options;
  let u: URL;
  try {
    u = new URL(redirectUri);
  } catch {
    throw new ConnectError(`The redirect URI ${redirectUri} is not a URL`);
  }
  if (isLoopbackRedirect(u)) {
    const anyPort = u.port === '0';
    io.print(`Opening the browser to authorize socialpub${anyPort ? '' : `; ${options.registration(redirectUri)}`}.`);
    const res = await runLoopbackOAuth({
      authorizeUrl: (p) => buildUrl(anyPort ? p : { ...p, redirectUri }),
      redirectPath: u.pathname,
      port: Number(u.port || 80),
      openBrowser: io.openBrowser,
      clock: options.clock,
      timeoutMs: options.timeoutMs,
    });
    return { code: res.code, redirectUri: anyPort ? res.redirectUri : redirectUri };
  }
  const { code } = await authorizeByPaste(io, (state) => buildUrl({ redirectUri, state }));
  return { code, redirectUri };
}
