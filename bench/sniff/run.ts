// bench/sniff: the hand-written magic-byte sniffer (packages/daemon/src/media/sniff.ts)
// against file-type (sindresorhus), the maintained library, on a labelled corpus of the
// heads media preparation meets. Prints each one's correct verdicts (accept as the right
// format / refuse / HTML page), where they differ, and the time per call, with the ratio.
// Decides which sniffer the daemon uses: file-type unless ours is measurably better.
import { fileTypeFromBuffer } from 'file-type';
import { looksLikeHtml, SNIFF_BYTES, sniffFormat } from '../../packages/daemon/src/media/sniff';

type Verdict = string; // a MIME type we accept, 'html', or 'refuse'

const b = (...parts: (string | number[] | Buffer)[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.isBuffer(p) ? p : Buffer.from(p))));
const box = (type: string, payload: Buffer) => b([0, 0, (payload.length + 8) >> 8, (payload.length + 8) & 255], type, payload);
const ftyp = (major: string, ...compatible: string[]) => box('ftyp', b(major, [0, 0, 0, 0], ...compatible));
const pad = (n: number, byte = 0) => Buffer.alloc(n, byte);

const CORPUS: [name: string, head: Buffer, expected: Verdict][] = [
  ['JPEG JFIF', b([0xff, 0xd8, 0xff, 0xe0, 0, 16], 'JFIF\0', pad(200)), 'image/jpeg'],
  ['JPEG Exif', b([0xff, 0xd8, 0xff, 0xe1, 0, 16], 'Exif\0\0', pad(200)), 'image/jpeg'],
  ['JPEG raw DQT', b([0xff, 0xd8, 0xff, 0xdb], pad(200)), 'image/jpeg'],
  ['PNG', b('\x89PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', pad(100)), 'image/png'],
  ['APNG (a PNG)', b('\x89PNG\r\n\x1a\n', [0, 0, 0, 13], 'IHDR', pad(17), [0, 0, 0, 8], 'acTL', pad(100)), 'image/png'],
  ['GIF87a', b('GIF87a', pad(100)), 'image/gif'],
  ['GIF89a', b('GIF89a', pad(100)), 'image/gif'],
  ['MP4 isom', b(ftyp('isom', 'isom', 'iso2', 'avc1', 'mp41'), box('free', pad(8)), pad(100)), 'video/mp4'],
  ['MP4 mp42', b(ftyp('mp42', 'mp42', 'isom'), pad(100)), 'video/mp4'],
  ['MP4 avc1', b(ftyp('avc1', 'avc1', 'isom'), pad(100)), 'video/mp4'],
  ['MP4 M4V (iTunes video)', b(ftyp('M4V ', 'M4V ', 'M4A ', 'mp42', 'isom'), pad(100)), 'video/mp4'],
  ['MP4 dash', b(ftyp('dash', 'iso6', 'avc1', 'mp41'), pad(100)), 'video/mp4'],
  ['MP4 XAVC (Sony camera)', b(ftyp('XAVC', 'XAVC', 'mp42', 'iso2'), pad(100)), 'video/mp4'],
  ['MP4 iso5 (ffmpeg fragmented)', b(ftyp('iso5', 'iso5', 'iso6', 'mp41'), pad(100)), 'video/mp4'],
  ['MOV ftyp qt', b(ftyp('qt  ', 'qt  '), box('wide', pad(0)), pad(100)), 'video/quicktime'],
  ['MOV without ftyp (wide, mdat)', b(box('wide', pad(0)), [0, 0, 0, 16], 'mdat', pad(100)), 'video/quicktime'],
  ['MOV without ftyp (moov)', b([0, 0, 1, 0], 'moov', [0, 0, 0, 108], 'mvhd', pad(100)), 'video/quicktime'],
  ['AVI', b('RIFF', [0x80, 0, 0, 0], 'AVI LIST', pad(120)), 'video/x-msvideo'],
  ['WebP (not accepted)', b('RIFF', [0x40, 0, 0, 0], 'WEBPVP8 ', pad(60)), 'refuse'],
  ['WAV (RIFF, not video)', b('RIFF', [0x40, 0, 0, 0], 'WAVEfmt ', pad(60)), 'refuse'],
  ['HEIC', b(ftyp('heic', 'mif1', 'heic'), pad(40)), 'refuse'],
  ['AVIF', b(ftyp('avif', 'avif', 'mif1', 'miaf'), pad(40)), 'refuse'],
  ['3GP', b(ftyp('3gp4', '3gp4', 'isom'), pad(100)), 'refuse'],
  ['M4A audio', b(ftyp('M4A ', 'M4A ', 'mp42', 'isom'), pad(100)), 'refuse'],
  ['Canon CR3 raw', b(ftyp('crx ', 'crx ', 'isom'), pad(100)), 'refuse'],
  ['unknown ISO brand', b(ftyp('zzzz', 'zzzz'), pad(100)), 'refuse'],
  ['truncated ftyp (11 bytes)', b([0, 0, 0, 0x18], 'ftypiso'), 'refuse'],
  ['JPEG cut to 2 bytes', b([0xff, 0xd8]), 'refuse'],
  ['ZIP', b('PK\x03\x04', pad(60, 9)), 'refuse'],
  ['PDF', b('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n'), 'refuse'],
  ['SVG', b('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'refuse'],
  ['Matroska/WebM', b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01], '\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm', pad(60)), 'refuse'],
  ['MPEG-TS', b(...Array.from({ length: 4 }, () => b([0x47], pad(187)))), 'refuse'],
  ['plain text', b('hello, this is not media\n'), 'refuse'],
  ['empty', b(), 'refuse'],
  ['HTML doctype', b('<!DOCTYPE html>\n<html><head><title>Sign in</title></head>'), 'html'],
  ['HTML with BOM and spaces', b('\xef\xbb\xbf  \n<html lang="en"><body>'), 'html'],
  ['XHTML with an XML prolog', b('<?xml version="1.0"?>\n<!DOCTYPE html><html>'), 'html'],
  ['HTML starting with a comment', b('<!-- login -->\n<html>'), 'html'],
];

const ACCEPTED = new Set(['image/jpeg', 'image/png', 'image/gif', 'video/mp4', 'video/quicktime', 'video/x-msvideo']);

function ours(head: Buffer): Verdict {
  const f = sniffFormat(head.subarray(0, SNIFF_BYTES));
  return f === 'html' ? 'html' : f ? f.mimeType : 'refuse';
}

async function library(head: Buffer): Promise<Verdict> {
  const found = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES));
  if (found) {
    const mime = found.mime === 'image/apng' ? 'image/png' : found.mime === 'video/vnd.avi' ? 'video/x-msvideo' : found.mime;
    return ACCEPTED.has(mime) ? mime : 'refuse';
  }
  // file-type has no HTML detection: it would need our looksLikeHtml beside it anyway.
  return looksLikeHtml(head) ? 'html' : 'refuse';
}

async function main(): Promise<void> {
  let oursRight = 0;
  let libRight = 0;
  const differences: string[] = [];
  for (const [name, head, expected] of CORPUS) {
    const a = ours(head);
    const l = await library(head);
    if (a === expected) oursRight++;
    if (l === expected) libRight++;
    if (a !== expected || l !== expected) differences.push(`  ${name}: expected ${expected}; hand-written ${a}; file-type ${l}`);
  }
  console.log(`corpus: ${CORPUS.length} heads`);
  console.log(`correct verdicts: hand-written ${oursRight}/${CORPUS.length}, file-type ${libRight}/${CORPUS.length}`);
  console.log(differences.length ? `wrong verdicts:\n${differences.join('\n')}` : 'no wrong verdicts');

  const rounds = 2000;
  const time = async (f: (h: Buffer) => unknown) => {
    const start = performance.now();
    for (let r = 0; r < rounds; r++) for (const [, head] of CORPUS) await f(head);
    return ((performance.now() - start) * 1000) / (rounds * CORPUS.length);
  };
  await time(ours);
  await time(library); // warm up both
  const usOurs = await time(ours);
  const usLib = await time(library);
  console.log(`time per head: hand-written ${usOurs.toFixed(2)} µs, file-type ${usLib.toFixed(2)} µs (file-type / hand-written = ${(usLib / usOurs).toFixed(1)}x)`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
