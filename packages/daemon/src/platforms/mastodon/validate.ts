import { mastodonLength, type ErrorDetail, type MastodonOptions } from '@socialpub/core';
import type { ValidationInput } from '../adapter';
import { formatBytes } from '../../media/format-bytes';
import { limitsOf } from './server-limits';

const OPT = 'platform_options.mastodon';

/** An entry per media item: a string applies to a single item, a list gives each its own. */
export function perItem(value: string | (string | null)[] | undefined, count: number): (string | null)[] {
  if (value === undefined) return Array.from({ length: count }, () => null);
  if (typeof value === 'string') return Array.from({ length: count }, (_, i) => (i === 0 ? value : null));
  return Array.from({ length: count }, (_, i) => value[i] ?? null);
}

/**
 * Mastodon's rules with the connected server's own limits (kept with the connection; the
 * defaults of Mastodon itself when unknown): text and content warning together within the
 * server's characters (links counting characters_reserved_per_url), some text or media, a
 * poll without media and within the server's poll limits, media types and sizes the server
 * takes, alt texts and focal points matching the media.
 */
export function validateMastodon(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const limits = limitsOf(input.connectionMeta);
  const o = (input.options ?? {}) as MastodonOptions;
  const text = input.caption;
  const length = mastodonLength(text, { urlLength: limits.characters_reserved_per_url, spoilerText: o.spoiler_text ?? '' });
  if (length > limits.characters) {
    const withCw = o.spoiler_text ? ' with its content warning (spoiler_text)' : '';
    out.push({ path: 'caption', message: `the Mastodon server takes statuses of at most ${limits.characters} characters; this one counts ${length}${withCw}` });
  }
  if (text.trim() === '' && input.media.length === 0) out.push({ path: 'caption', message: 'a Mastodon status needs text or media' });

  if (o.poll) {
    if (input.media.length > 0) out.push({ path: `${OPT}.poll`, message: 'a Mastodon status with a poll takes no media (leave media_urls empty or drop the poll)' });
    if (o.poll.options.length > limits.poll_max_options) {
      out.push({ path: `${OPT}.poll.options`, message: `the Mastodon server takes polls of at most ${limits.poll_max_options} options; this one has ${o.poll.options.length}` });
    }
    o.poll.options.forEach((opt, i) => {
      const n = [...opt].length;
      if (n > limits.poll_max_characters_per_option) {
        out.push({ path: `${OPT}.poll.options.${i}`, message: `the Mastodon server takes poll options of at most ${limits.poll_max_characters_per_option} characters; this one has ${n}` });
      }
    });
    if (o.poll.expires_in < limits.poll_min_expiration || o.poll.expires_in > limits.poll_max_expiration) {
      out.push({ path: `${OPT}.poll.expires_in`, message: `the Mastodon server takes polls running ${limits.poll_min_expiration} to ${limits.poll_max_expiration} seconds` });
    }
  }

  input.media.forEach((m, i) => {
    const path = `media_urls.${i}`;
    const type = m.mimeType?.toLowerCase() ?? null;
    if (type && !limits.supported_mime_types.includes(type)) out.push({ path, message: `the Mastodon server does not take ${type} media` });
    const max = m.kind === 'video' ? limits.video_size_limit : limits.image_size_limit;
    if (m.size !== null && m.size > max) {
      out.push({ path, message: `the Mastodon server takes ${m.kind === 'video' ? 'videos' : 'images'} up to ${formatBytes(max)}; this one is ${formatBytes(m.size)}` });
    }
  });

  // Per-item options beyond the media (a poll takes none: the schema says so already).
  const count = input.media.length;
  const items = `${count} media item${count === 1 ? '' : 's'}`;
  for (const field of ['alt_text', 'focus'] as const) {
    const v = o[field];
    const entries = Array.isArray(v) ? v.length : v === undefined ? 0 : 1;
    if (!o.poll && entries > count) out.push({ path: `${OPT}.${field}`, message: `${field} has ${entries} entr${entries === 1 ? 'y' : 'ies'} for ${items}` });
  }
  perItem(o.alt_text, count).forEach((alt, i) => {
    if (alt !== null && [...alt].length > limits.description_limit) {
      out.push({ path: Array.isArray(o.alt_text) ? `${OPT}.alt_text.${i}` : `${OPT}.alt_text`, message: `the Mastodon server takes media descriptions of at most ${limits.description_limit} characters` });
    }
  });
  return out;
}
