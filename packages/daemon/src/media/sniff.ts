import type { MediaKind } from '@socialpub/core';

export interface SniffedFormat {
  kind: MediaKind;
  mimeType: string;
  /** Canonical extension, with the dot. */
  ext: string;
}

/** Bytes needed to decide; fewer is fine when the whole file is shorter. */
export const SNIFF_BYTES = 512;

const MP4_BRANDS = new Set([
  'isom', 'iso2', 'iso3', 'iso4', 'iso5', 'iso6', 'iso7', 'iso8', 'iso9', 'mp41', 'mp42', 'mp71', 'avc1', 'hvc1', 'M4V ', 'M4VH', 'M4VP', 'f4v ', 'dash', 'msnv', 'ndas', 'XAVC', 'MSNV', 'mmp4',
]);
// QuickTime files without an ftyp box open directly with one of these atoms.
const QT_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const JPEG: SniffedFormat = { kind: 'image', mimeType: 'image/jpeg', ext: '.jpg' };
const PNG: SniffedFormat = { kind: 'image', mimeType: 'image/png', ext: '.png' };
const GIF: SniffedFormat = { kind: 'image', mimeType: 'image/gif', ext: '.gif' };
const MP4: SniffedFormat = { kind: 'video', mimeType: 'video/mp4', ext: '.mp4' };
const MOV: SniffedFormat = { kind: 'video', mimeType: 'video/quicktime', ext: '.mov' };
const AVI: SniffedFormat = { kind: 'video', mimeType: 'video/x-msvideo', ext: '.avi' };
const PDF: SniffedFormat = { kind: 'document', mimeType: 'application/pdf', ext: '.pdf' };

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/**
 * Judges a file's format from its first bytes, never from its name or the server's
 * Content-Type: a `.jpg` link that serves a login page is an HTML page.
 */
export function sniffFormat(head: Uint8Array): SniffedFormat | 'html' | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return JPEG;
  if (head.length >= 8 && ascii(head, 0, 8) === '\x89PNG\r\n\x1a\n') return PNG;
  if (head.length >= 6 && (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a')) return GIF;
  if (head.length >= 12 && ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'AVI ') return AVI;
  // LinkedIn document posts.
  if (head.length >= 5 && ascii(head, 0, 5) === '%PDF-') return PDF;
  if (head.length >= 12 && ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'qt  ') return MOV;
    if (MP4_BRANDS.has(brand)) return MP4;
    return null; // 3GP, HEIC, AVIF, M4A...: ISO media we do not accept
  }
  if (head.length >= 8 && QT_ATOMS.has(ascii(head, 4, 8))) return MOV;
  if (looksLikeHtml(head)) return 'html';
  return null;
}

/** True for the start of an HTML (or XHTML) document, after a BOM and white space. */
export function looksLikeHtml(head: Uint8Array): boolean {
  let text = new TextDecoder('utf-8', { fatal: false }).decode(head.subarray(0, SNIFF_BYTES));
  text = text.replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (text.startsWith('<?xml')) text = text.slice(text.indexOf('?>') + 2).trimStart();
  return /^<(!doctype html|html|head|body|title|script|meta|!--|div|p[ >]|a |iframe|form|noscript|style)/.test(text);
}
