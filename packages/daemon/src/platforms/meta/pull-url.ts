import type { MediaItem, PublishContext } from '../adapter';
import { PermanentError } from '../errors';
import { isLocalUrl } from './validation-kit';

/**
 * The URL a pull platform (Instagram, Threads) downloads media item `i` from. A live platform
 * cannot reach this machine's loopback or private network (the simulators can), so such a URL,
 * or none at all, fails for good with the fix named.
 */
export function pullUrl(ctx: PublishContext, label: string, m: MediaItem | undefined, i: number): string {
  if (!m?.publicUrl) {
    throw new PermanentError(
      `${label} downloads media from a public URL, and media_urls[${i}] has none (this daemon has no public base URL). Start it with --public-url or set SOCIALPUB_PUBLIC_URL.`,
      { platformCode: 'media_not_public' },
    );
  }
  if (ctx.credentials.mode === 'live' && isLocalUrl(m.publicUrl)) {
    throw new PermanentError(
      `${label} downloads media from a public URL, and media_urls[${i}] is served at ${new URL(m.publicUrl).host}, which the internet cannot reach. Start the daemon with --public-url https://<public host> (or set SOCIALPUB_PUBLIC_URL).`,
      { platformCode: 'media_not_public' },
    );
  }
  return m.publicUrl;
}
