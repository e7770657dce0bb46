import type { AddressGuard } from '../../net/address-guard';
import { sniffFormat } from '../../media/sniff';
import { scanPageMeta } from './page-meta';
import { safeGet } from './safe-get';
import { BLUESKY_LIMITS } from './validate';

/** What an app.bsky.embed.external card shows, before its thumbnail is uploaded. */
export interface LinkCard {
  uri: string;
  title: string;
  description: string;
  thumb: { bytes: Buffer; mimeType: string } | null;
}

export type LinkCardFetcher = (url: string, signal: AbortSignal) => Promise<LinkCard>;

const HTML_MAX = 1_000_000;
const THUMB_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/gif']);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };
const decode = (s: string) =>
  s
    .replace(/&(#x[0-9a-f]{1,8}|#[0-9]{1,8}|[a-z0-9]{1,32});/gi, (m, e: string) => {
      if (e[0] === '#') {
        const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(cp) && cp > 0 && cp < 0x110000 ? String.fromCodePoint(cp) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Fetches a link card's title, description and thumbnail through the SSRF-safe fetcher
 * (Open Graph tags, else `<title>` and the description meta tag, read by page-meta.ts's
 * linear scan: a hostile page costs time in proportion to its size). The thumbnail is left
 * out when it is missing, not an image, or over Bluesky's 1,000,000-byte blob limit.
 */
export function safeLinkCardFetcher(guard: AddressGuard): LinkCardFetcher {
  return async (url, signal) => {
    const page = await safeGet(url, guard, signal, HTML_MAX);
    if (page.status !== 200) throw new Error(`the link answered ${page.status}`);
    if (!page.contentType.includes('html')) throw new Error(`the link is ${page.contentType || 'not an HTML page'}`);
    const html = page.bytes.toString('utf8');
    const found = scanPageMeta(html);
    const title = decode(found.title ?? '');
    const description = decode(found.description ?? '');
    const image = found.image === null ? null : decode(found.image);
    let thumb: LinkCard['thumb'] = null;
    if (image) {
      try {
        const img = await safeGet(new URL(image, page.url).href, guard, signal, BLUESKY_LIMITS.linkCardThumbBytes);
        const format = sniffFormat(img.bytes.subarray(0, 512));
        const mimeType = format && format !== 'html' ? format.mimeType : null;
        if (img.status === 200 && mimeType && THUMB_TYPES.has(mimeType)) thumb = { bytes: img.bytes, mimeType };
      } catch {
        thumb = null; // a card without its picture is still a card
      }
    }
    return { uri: url, title: title.slice(0, 300), description: description.slice(0, 1000), thumb };
  };
}
