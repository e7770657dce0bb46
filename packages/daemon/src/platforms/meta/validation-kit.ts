import type { ErrorDetail, Platform } from '@socialpub/core';
import type { ValidationInput, ValidationMedia } from '../adapter';

export const MB = 1024 * 1024;

export const LABELS: Record<string, string> = { instagram: 'Instagram', facebook: 'Facebook', threads: 'Threads' };

/** Problems are reported against the request fields the user wrote. */
export const captionPath = (platform: Platform) => `platform_captions.${platform}`;
export const typePath = (platform: Platform) => `platform_types.${platform}`;
export const mediaPath = (i: number) => `media_urls[${i}]`;

export function countIssue(input: ValidationInput, min: number, max: number, what: string): ErrorDetail[] {
  const n = input.media.length;
  if (n >= min && n <= max) return [];
  const label = LABELS[input.platform] ?? input.platform;
  const range = min === max ? `exactly ${min}` : n < min ? `at least ${min}` : `at most ${max}`;
  return [{ path: 'media_urls', message: `${label} ${what} takes ${range} media item${max === 1 && min === 1 ? '' : 's'}; ${n} given.` }];
}

/**
 * Pull platforms fetch media themselves: a file prepared by this daemon is reachable only
 * through a public base URL. Names the fix, since the user can do nothing else about it.
 */
export function reachability(input: ValidationInput): ErrorDetail[] {
  if (input.publicBaseUrl) return [];
  const label = LABELS[input.platform] ?? input.platform;
  return input.media.flatMap((m, i) =>
    m.prepared
      ? [
          {
            path: mediaPath(i),
            message: `${label} downloads media from a public URL, and this daemon has no public base URL, so it cannot fetch this prepared file. Start the daemon with --public-url https://<host> (or set SOCIALPUB_PUBLIC_URL), or pass a publicly reachable media URL instead.`,
          },
        ]
      : [],
  );
}

export interface KindLimits {
  image?: { maxBytes: number; mimeTypes?: readonly string[] };
  video?: { maxBytes: number; minSec?: number; maxSec?: number };
}

/** Media kind, size, format and duration, where known (unknown facts are not guessed). */
export function mediaIssues(input: ValidationInput, limits: KindLimits, what: string): ErrorDetail[] {
  const label = LABELS[input.platform] ?? input.platform;
  const out: ErrorDetail[] = [];
  input.media.forEach((m: ValidationMedia, i) => {
    const path = mediaPath(i);
    if (m.kind === null) return;
    const rule = m.kind === 'document' ? undefined : limits[m.kind];
    if (!rule) {
      out.push({ path, message: `${label} ${what} does not take ${m.kind}s.` });
      return;
    }
    if (m.size !== null && m.size > rule.maxBytes) out.push({ path, message: `${label} ${what} takes ${m.kind}s up to ${Math.round(rule.maxBytes / MB)} MB; this one is ${(m.size / MB).toFixed(1)} MB.` });
    if ('mimeTypes' in rule && rule.mimeTypes && m.mimeType && !rule.mimeTypes.includes(m.mimeType)) {
      out.push({ path, message: `${label} ${what} takes ${rule.mimeTypes.map((t) => t.replace('image/', '').toUpperCase()).join(' or ')} images; this one is ${m.mimeType}.` });
    }
    if ('minSec' in rule && m.durationSec != null) {
      if (rule.minSec !== undefined && m.durationSec < rule.minSec) out.push({ path, message: `${label} ${what} videos must last at least ${rule.minSec} s; this one lasts ${m.durationSec} s.` });
      if (rule.maxSec !== undefined && m.durationSec > rule.maxSec) out.push({ path, message: `${label} ${what} videos may last at most ${rule.maxSec} s; this one lasts ${m.durationSec} s.` });
    }
  });
  return out;
}

/** True for an http(s) URL whose host a platform on the internet cannot reach (loopback, private, link-local). */
export function isLocalUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  } catch {
    return true;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '::1' || host === '0.0.0.0') return true;
  if (/^(fc|fd|fe8|fe9|fea|feb)/.test(host) && host.includes(':')) return true;
  const m = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return a === 127 || a === 10 || a === 0 || (a === 169 && b === 254) || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 100 && b >= 64 && b <= 127);
}
