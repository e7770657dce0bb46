import type { MediaKind } from '@socialpub/core';

export interface ValidationMedia {
  url: string;
  /** Known for prepared files (from the bytes); guessed from the extension otherwise; null when unknown. */
  kind: MediaKind | null;
  mimeType: string | null;
  size: number | null;
  /** True when the URL is a file prepared by this daemon. */
  prepared: boolean;
  width?: number | null;
  height?: number | null;
  durationSec?: number | null;
}

/** A media item ready for an adapter: readable from disk (push) and/or reachable by URL (pull). */
export interface MediaItem {
  /** The URL as given in media_urls. */
  url: string;
  kind: MediaKind;
  mimeType: string;
  size: number;
  /** A URL the platform can fetch (the prepared file under the public base URL, or the original), or null. */
  publicUrl: string | null;
  /** Absolute path of the local copy (prepared or fetched at publish time). */
  path: string;
  sha256: string | null;
}
