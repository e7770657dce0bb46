import { ConnectError } from '../../oauth/connect-error';
import { MEDIA_ALLOW_PRIVATE_HINT, type AddressGuard } from '../../net/address-guard';

/**
 * The server a user names (`https://mastodon.social`, or just `mastodon.social`) as its
 * origin: https only, no credentials, path, query or fragment; then its host must resolve
 * to public addresses only (the daemon's address guard), so a connect never points the
 * daemon at a private network. Errors name the flag.
 */
export async function checkServerUrl(input: string, guard: AddressGuard | null): Promise<URL> {
  const text = input.trim();
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    throw new ConnectError(`--server: "${text}" is not a server address (e.g. https://mastodon.social)`);
  }
  if (url.protocol !== 'https:') throw new ConnectError(`--server: ${url.origin} is not https; Mastodon servers are reached over https only`);
  if (url.username || url.password) throw new ConnectError('--server: the address must not carry a user name or password');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) throw new ConnectError(`--server: give the server alone (${url.origin}), without a path`);
  if (guard) {
    try {
      await guard.resolveHost(url.hostname);
    } catch (err) {
      // The guard's hint on allowing private media addresses does not apply to a server: left out.
      throw new ConnectError(`--server: ${(err as Error).message.replace(/^refused to fetch from/, 'refused').replace(`; ${MEDIA_ALLOW_PRIVATE_HINT}`, '')}`);
    }
  }
  return url;
}
