import { rm } from 'node:fs/promises';
import { formatBytes } from './format-bytes';
import { HashingFileSink } from './hashing-file-sink';
import { MediaError } from '../net/media-error';
import { safeFileName } from './safe-name';
import { SNIFF_BYTES, sniffFormat, type SniffedFormat } from './sniff';

export interface ReceiveOptions {
  /** Where the bytes go; the caller renames it into place. Removed on failure. */
  path: string;
  maxBytes: number;
  /** The client's name for the file (`?filename=`); only its sanitised stem is kept. */
  filename?: string | undefined;
  signal?: AbortSignal | undefined;
}

export interface ReceivedFile {
  size: number;
  sha256: string;
  format: SniffedFormat;
  /** Safe display name with the sniffed format's extension. */
  name: string;
}

/**
 * Streams an uploaded body to `path` through the same sink as downloads: the format is
 * judged from the first bytes before anything is written, the size cap is counted on the
 * bytes received, and the sha256 is computed on the hashing thread. At most one chunk
 * (plus the 512-byte head) is in memory at a time; the reader is pulled only as the disk
 * keeps up, so a fast client is slowed by TCP rather than buffered.
 */
export async function receiveUpload(body: ReadableStream<Uint8Array>, options: ReceiveOptions): Promise<ReceivedFile> {
  const reader = body.getReader();
  let sink: HashingFileSink | null = null;
  try {
    const head: Buffer[] = [];
    let headLength = 0;
    let ended = false;
    while (headLength < SNIFF_BYTES) {
      options.signal?.throwIfAborted();
      const next = await reader.read();
      if (next.done) {
        ended = true;
        break;
      }
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      head.push(chunk);
      headLength += chunk.length;
      if (headLength > options.maxBytes) throw tooLarge(options.maxBytes);
    }
    const first = Buffer.concat(head);
    if (first.length === 0) throw new EmptyUploadError('the body is empty: send the file\'s bytes as the request body');
    const format = sniffFormat(first);
    if (format === 'html') throw new MediaError('html_page', 'the body is an HTML page, not an image or a video');
    if (format === null) throw new MediaError('unsupported_format', 'the file is not JPEG, PNG, GIF, MP4, MOV or AVI (judged from its bytes)');

    sink = await HashingFileSink.open(options.path, options.maxBytes);
    if (!sink.write(first)) await sink.drained();
    while (!ended) {
      options.signal?.throwIfAborted();
      const next = await reader.read();
      if (next.done) break;
      if (!sink.write(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength))) await sink.drained();
    }
    const { size, sha256 } = await sink.finish();
    sink = null;
    return { size, sha256, format, name: safeFileName([options.filename], format.ext) };
  } catch (err) {
    await sink?.abort();
    await rm(options.path, { force: true });
    // Stop the client's body: nothing more of it is wanted.
    reader.cancel().catch(() => {});
    throw err;
  } finally {
    try {
      reader.releaseLock();
    } catch {
      // a read still pending after a cancel: the stream is finished either way
    }
  }
}

/** An upload without a single byte (a client mistake, not a format). */
export class EmptyUploadError extends Error {
  override name = 'EmptyUploadError';
}

function tooLarge(maxBytes: number): MediaError {
  return new MediaError('too_large', `the file is larger than the limit of ${formatBytes(maxBytes)}`);
}
