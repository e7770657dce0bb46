import { rm } from 'node:fs/promises';
import { MAX_MEDIA_BYTES } from '@socialpub/core';
import type { AddressGuard } from '../net/address-guard';
import { formatBytes } from './format-bytes';
import { HashingFileSink } from './hashing-file-sink';
import type { Http1Response } from '../net/http1-get';
import { MediaError } from '../net/media-error';
import type { ResolvedSource } from './resolve-source';
import { safeFetch, type CookieJar, type SafeResponse } from '../net/safe-fetch';
import { dispositionFileName, safeFileName } from './safe-name';
import { SNIFF_BYTES, sniffFormat, type SniffedFormat } from './sniff';

export interface DownloadOptions {
  guard: AddressGuard;
  signal: AbortSignal;
  /** Where the bytes go; the caller renames it into place on success. Removed on failure. */
  path: string;
  /** Default 500 MB: bigger declared lengths are refused before reading, bigger bodies stopped at the cap. */
  maxBytes?: number;
  headersTimeoutMs?: number;
  idleTimeoutMs?: number;
}

export interface DownloadResult {
  size: number;
  sha256: string;
  format: SniffedFormat;
  /** Safe display name with the format's extension. */
  name: string;
  finalUrl: string;
}

// An interstitial page (Drive's warning) is small; anything bigger is not one.
const MAX_INTERSTITIAL_BYTES = 1024 * 1024;

/**
 * Streams a source's bytes to `path` with the size cap, hashing as it goes; the format
 * is judged from the first bytes before anything is written.
 */
export async function downloadToFile(source: ResolvedSource, options: DownloadOptions): Promise<DownloadResult> {
  const maxBytes = options.maxBytes ?? MAX_MEDIA_BYTES;
  const cookies: CookieJar = new Map();
  let url = source.url;
  let redirectsLeft: number | undefined;
  let interstitialsLeft = source.interstitial ? 1 : 0;
  try {
    for (;;) {
      const res = await safeFetch(url, { guard: options.guard, signal: options.signal, cookies, redirectsLeft, headersTimeoutMs: options.headersTimeoutMs, idleTimeoutMs: options.idleTimeoutMs });
      try {
        if (res.status !== 200) {
          throw new MediaError('http_error', `the source answered ${res.status} ${res.statusText}`.trim(), { status: res.status });
        }
        const declared = Number(res.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          throw new MediaError('too_large', `the file is ${formatBytes(declared)}; the limit is ${formatBytes(maxBytes)}`);
        }
        const reader = res.body;
        const head = await readHead(reader, SNIFF_BYTES);
        const format = sniffFormat(head.bytes);
        const isHtml = format === 'html' || (format === null && /^text\/html|^application\/xhtml/i.test(res.headers['content-type'] ?? '') && head.bytes.includes(0x3c));
        if (isHtml && interstitialsLeft > 0 && source.interstitial) {
          interstitialsLeft--;
          const html = await readRest(reader, head, MAX_INTERSTITIAL_BYTES);
          const next = html === null ? null : source.interstitial(html, res.url.href);
          if (next) {
            url = next;
            redirectsLeft = res.redirectsLeft;
            continue;
          }
        }
        if (isHtml) throw new MediaError('html_page', 'the link serves an HTML page, not a file (a share link that needs a login, or a preview page)');
        if (format === null) {
          throw new MediaError('unsupported_format', 'the file is not JPEG, PNG, GIF, MP4, MOV or AVI (judged from its bytes)');
        }
        const { size, sha256 } = await writeBody(reader, head, options.path, maxBytes);
        const fromHeader = dispositionFileName(res.headers['content-disposition']);
        const name = safeFileName([fromHeader, lastSegment(res.url), lastSegment(new URL(source.url))], format.ext);
        return { size, sha256, format, name, finalUrl: res.url.href };
      } finally {
        destroyQuietly(res);
      }
    }
  } catch (err) {
    await rm(options.path, { force: true });
    if (options.signal.aborted) throw options.signal.reason;
    throw err;
  }
}

interface Head {
  bytes: Buffer;
  ended: boolean;
}

async function readHead(reader: Http1Response, want: number): Promise<Head> {
  const chunks: Buffer[] = [];
  let length = 0;
  while (length < want) {
    const next = await reader.read();
    if (next === null) return { bytes: Buffer.concat(chunks), ended: true };
    chunks.push(next);
    length += next.length;
  }
  return { bytes: Buffer.concat(chunks), ended: false };
}

async function readRest(reader: Http1Response, head: Head, limit: number): Promise<string | null> {
  const chunks = [head.bytes];
  let length = head.bytes.length;
  if (!head.ended) {
    for (let next = await reader.read(); next !== null; next = await reader.read()) {
      length += next.length;
      if (length > limit) return null;
      chunks.push(next);
    }
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function writeBody(reader: Http1Response, head: Head, path: string, maxBytes: number): Promise<{ size: number; sha256: string }> {
  const sink = await HashingFileSink.open(path, maxBytes);
  try {
    if (head.bytes.length && !sink.write(head.bytes)) await sink.drained();
    if (!head.ended) await reader.pipeTo(sink);
    return await sink.finish();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}

function destroyQuietly(res: SafeResponse): void {
  res.body.destroy();
}

function lastSegment(url: URL): string | null {
  const segment = url.pathname.split('/').filter(Boolean).pop();
  return segment ?? null;
}
