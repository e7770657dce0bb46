import { AddressGuard, type HostResolver } from '../../net/address-guard';
import { safeFetch } from '../../net/safe-fetch';
import { sniffFormat } from '../../media/sniff';

/** thumbnails.set takes JPEG or PNG up to 50 MB (docs/reference/platforms.md §12.6.3; the older 2 MB limit, §12.8, no longer applies). */
export const THUMBNAIL_LIMITS = { maxBytes: 50 * 1024 * 1024, types: ['image/jpeg', 'image/png'] } as const;

export interface ThumbnailImage {
  bytes: Buffer;
  mimeType: string;
}

/** Fetches a thumbnail image; rejects with a message fit to show on the target. */
export type ThumbnailFetcher = (url: string, signal: AbortSignal) => Promise<ThumbnailImage>;

export interface ThumbnailFetcherOptions {
  /** Allow private addresses (the daemon's media policy; never cloud metadata). Default false. */
  allowPrivate?: boolean;
  resolve?: HostResolver;
  maxBytes?: number;
}

/**
 * The daemon's SSRF-safe fetch (net/safe-fetch: public addresses only, checked per
 * redirect hop, the socket pinned to the checked address) for a thumbnail: at most
 * `maxBytes`, and JPEG or PNG judged from the bytes, not the name or Content-Type.
 */
export function safeThumbnailFetcher(options: ThumbnailFetcherOptions = {}): ThumbnailFetcher {
  const guard = new AddressGuard({ allowPrivate: options.allowPrivate ?? false, ...(options.resolve ? { resolve: options.resolve } : {}) });
  const max = options.maxBytes ?? THUMBNAIL_LIMITS.maxBytes;
  const mb = (n: number) => `${Math.round(n / 1024 / 1024)} MB`;
  return async (url, signal) => {
    const res = await safeFetch(url, { guard, signal, headersTimeoutMs: 30_000, idleTimeoutMs: 30_000 });
    if (res.status !== 200) {
      res.body.destroy();
      throw new Error(`the thumbnail URL answered ${res.status} ${res.statusText}`.trim());
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      res.body.destroy();
      throw new Error(`the thumbnail is ${mb(declared)}; YouTube takes at most ${mb(max)}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for (let chunk = await res.body.read(); chunk !== null; chunk = await res.body.read()) {
      size += chunk.length;
      if (size > max) {
        res.body.destroy();
        throw new Error(`the thumbnail is over ${mb(max)}; YouTube takes at most ${mb(max)}`);
      }
      chunks.push(chunk);
    }
    const bytes = Buffer.concat(chunks);
    const format = sniffFormat(bytes.subarray(0, 512));
    const mimeType = format && format !== 'html' ? format.mimeType : null;
    if (!mimeType || !(THUMBNAIL_LIMITS.types as readonly string[]).includes(mimeType)) {
      throw new Error(`the thumbnail must be a JPEG or PNG image (this one is ${mimeType ?? (format === 'html' ? 'an HTML page' : 'not an image format YouTube takes')})`);
    }
    return { bytes, mimeType };
  };
}
