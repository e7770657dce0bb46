import { randomBytes } from 'node:crypto';
import { ConnectError } from './connect-error';
import type { ConnectIO } from './connect-io';
import { OAuthFlowError } from './loopback-oauth';

/**
 * Paste mode, for redirect URIs this machine cannot serve (Instagram, Threads and TikTok
 * web apps insist on https): opens the authorize URL built for a fresh state, then the
 * user pastes the address the browser landed on. The state must be this attempt's and
 * the address must carry a code, as runLoopbackOAuth checks for a loopback redirect.
 */
export async function authorizeByPaste(io: ConnectIO, authorizeUrl: (state: string) => string): Promise<{ code: string; params: Record<string, string> }> {
  const state = randomBytes(24).toString('base64url');
  await io.openBrowser(authorizeUrl(state));
  const pasted = (await io.prompt('After authorizing, paste the full URL the browser was sent to')).trim();
  let back: URL;
  try {
    back = new URL(pasted);
  } catch {
    throw new ConnectError('That is not a URL; run connect again and paste the whole address from the browser bar');
  }
  const params = Object.fromEntries(back.searchParams);
  if (params.state !== state) throw new OAuthFlowError('The pasted URL belongs to another sign-in attempt (state mismatch)', 'state_mismatch');
  if (params.error) throw new OAuthFlowError(`Authorization refused: ${params.error_description ?? params.error_reason ?? params.error}`, 'denied');
  // Instagram appends `#_` to the redirect; like runLoopbackOAuth, drop it from the code.
  const code = params.code?.replace(/#_$/, '');
  if (!code) throw new OAuthFlowError('The pasted URL carries no authorization code', 'no_code');
  return { code, params: { ...params, code } };
}
