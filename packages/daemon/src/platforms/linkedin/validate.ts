import type { ErrorDetail, LinkedinOptions } from '@socialpub/core';
import type { ValidationInput, ValidationMedia } from '../adapter';
import { mentionPositions } from './little-text';

/** LinkedIn's media limits (Images, Videos and Documents APIs; docs/reference/platforms.md §15.5). */
export const LINKEDIN_LIMITS = {
  imagePixels: 36_152_320,
  videoMinBytes: 75 * 1024,
  videoMaxBytes: 500 * 1024 * 1024,
  videoMinSec: 3,
  videoMaxSec: 30 * 60,
  documentMaxBytes: 100 * 1024 * 1024,
} as const;

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);
const VIDEO_TYPES = new Set(['video/mp4']);
const mb = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MB`;

/**
 * LinkedIn rules beyond the core table (3,000 characters, up to 20 media with a video
 * alone, a document alone): formats and sizes, a document's title, visibility for an
 * organization, and mentions that the caption writes.
 */
export function validateLinkedin(input: ValidationInput): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const o = (input.options ?? {}) as LinkedinOptions;
  if (input.caption.trim() === '' && input.media.length === 0) out.push({ path: 'caption', message: 'A LinkedIn post needs text or media' });
  if (input.type === 'document') {
    if (!o.document_title) out.push({ path: 'platform_options.linkedin.document_title', message: 'a LinkedIn document post needs a title (platform_options.linkedin.document_title)' });
  } else if (o.document_title !== undefined) {
    out.push({ path: 'platform_options.linkedin.document_title', message: 'document_title applies to document posts only (type document)' });
  }
  if (o.visibility === 'CONNECTIONS' && o.organization !== undefined) {
    out.push({ path: 'platform_options.linkedin.visibility', message: 'an organization posts to PUBLIC or LOGGED_IN, not CONNECTIONS (which is for members)' });
  }
  const positions = mentionPositions(input.caption.normalize('NFC'), o.mentions ?? []);
  positions.forEach((at, i) => {
    if (at < 0) out.push({ path: `platform_options.linkedin.mentions.${i}.name`, message: `the caption has no "@${o.mentions![i]!.name}" to turn into this mention` });
  });
  input.media.forEach((m, i) => out.push(...checkItem(m, `media_urls.${i}`, input.type)));
  return out;
}

function checkItem(m: ValidationMedia, path: string, type: string): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  const mime = m.mimeType?.toLowerCase() ?? null;
  if (type === 'document') {
    if (m.kind !== null && m.kind !== 'document') out.push({ path, message: 'a LinkedIn document post takes one PDF' });
    if (mime && mime !== 'application/pdf') out.push({ path, message: `LinkedIn document posts take PDF here, not ${mime}` });
    if (m.size !== null && m.size > LINKEDIN_LIMITS.documentMaxBytes) out.push({ path, message: `LinkedIn takes documents up to 100 MB; this one is ${mb(m.size)}` });
    return out;
  }
  if (m.kind === 'image') {
    if (mime && !IMAGE_TYPES.has(mime)) out.push({ path, message: `LinkedIn takes JPEG, PNG or GIF images, not ${mime}` });
    if (m.width && m.height && m.width * m.height > LINKEDIN_LIMITS.imagePixels) out.push({ path, message: `LinkedIn takes images up to 36,152,320 pixels; this one has ${m.width * m.height}` });
  } else if (m.kind === 'video') {
    if (mime && !VIDEO_TYPES.has(mime)) out.push({ path, message: `LinkedIn takes MP4 videos, not ${mime}` });
    if (m.size !== null && (m.size < LINKEDIN_LIMITS.videoMinBytes || m.size > LINKEDIN_LIMITS.videoMaxBytes)) out.push({ path, message: `LinkedIn takes videos of 75 KB to 500 MB; this one is ${mb(m.size)}` });
    const d = m.durationSec;
    if (d !== null && d !== undefined && (d < LINKEDIN_LIMITS.videoMinSec || d > LINKEDIN_LIMITS.videoMaxSec)) out.push({ path, message: `LinkedIn takes videos of 3 seconds to 30 minutes; this one lasts ${Math.round(d)} s` });
  } else if (m.kind === 'document') {
    out.push({ path, message: 'a PDF goes in a LinkedIn document post (type document), not a post' });
  }
  return out;
}
