import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { Readable } from 'node:stream';
import { ROUTES, type MediaLibrary, type MediaStatus, type MediaUploadResponse, type PrepareResponse } from '@socialpub/core';
import type { RequestOptions } from '../options';
import { followEvents } from '../follow-events';
import { pollUntil, type WaitOptions } from '../poll';
import { Events } from './events';
import type { UploadBody } from '../transport';
import type { PrepareParams, SettledMediaStatus, UploadOptions, UploadSource } from '../types';
import { Resource } from './resource';

export class Media extends Resource {
  /**
   * POST /media/prepare: starts fetching and re-hosting 1 to 10 URLs; resolves `{ task_id }`
   * at once. Always sends an Idempotency-Key, so a retry never starts a second task.
   */
  prepare(body: PrepareParams, options?: RequestOptions): Promise<PrepareResponse> {
    return this.transport.call(ROUTES['media.prepare'], { body }, options);
  }

  /**
   * POST /media/upload (a socialpub extension): sends one local file's raw bytes, streamed
   * (a path is read from disk as it is sent, never loaded whole), and resolves with the
   * media task, already `completed` with the one file: use `files[0].prepared_url` in
   * `media_urls`. `source` is a file path, a Buffer/Uint8Array or a Readable.
   *
   * A path or a Buffer is sent with an Idempotency-Key and retried like `prepare()`; a
   * Readable can be read only once, so it is never retried. The daemon refuses HTML and
   * unknown formats (APIError 415, `details[0].code` html_page or unsupported_format) and
   * files past its cap (PayloadTooLargeError).
   */
  async upload(source: UploadSource, options: UploadOptions = {}): Promise<MediaUploadResponse> {
    const { filename, contentType, ...requestOptions } = options;
    let body: UploadBody;
    let name = filename;
    const type = contentType ?? 'application/octet-stream';
    if (typeof source === 'string') {
      // Fails here, with the path in the message, rather than mid-request.
      // fs/promises when first used: it loads ten modules, which a program that uploads nothing (a CLI command) need not.
      const info = await process.getBuiltinModule('node:fs/promises').stat(source);
      if (!info.isFile()) throw new TypeError(`media.upload: ${source} is not a file`);
      name ??= basename(source);
      body = { contentType: type, reopenable: true, open: () => createReadStream(source) };
    } else if (source instanceof Uint8Array) {
      const bytes = Buffer.from(source.buffer, source.byteOffset, source.byteLength);
      body = { contentType: type, reopenable: true, open: () => bytes };
    } else if (typeof (source as Partial<AsyncIterable<Uint8Array>>)[Symbol.asyncIterator] === 'function') {
      const stream = source instanceof Readable ? source : Readable.from(source);
      body = { contentType: type, reopenable: false, open: () => stream };
    } else {
      throw new TypeError('media.upload: source must be a file path, a Buffer or a Readable');
    }
    // An Idempotency-Key is generated for a path or bytes, not for a stream (never retried).
    return this.transport.call(ROUTES['media.upload'], { query: { filename: name }, upload: body }, requestOptions);
  }

  /** GET /media/library: your prepared files still on hand (uploads and fetched links until they expire), newest first, to reuse in a post. */
  library(options?: RequestOptions): Promise<MediaLibrary> {
    return this.transport.call(ROUTES['media.library'], {}, options);
  }

  /** GET /media/status/{task_id}: `processing` with progress, `completed` with files, or `failed`. */
  status(taskId: string, options?: RequestOptions): Promise<MediaStatus> {
    return this.transport.call(ROUTES['media.status'], { params: { task_id: taskId } }, options);
  }

  /**
   * Waits until the task is `completed` or `failed`, and resolves with that last status (it
   * does not throw on `failed`: check `status`, and `failed` for files that could not be
   * prepared). It follows the task's events (`media.task_completed`, `media.task_failed`),
   * so a wait of any length costs at most 3 counted requests: the stream, one status() once
   * it is open and one when the task ended. Against a daemon without /events it polls
   * status() with backoff.
   */
  async waitUntilReady(taskId: string, options: WaitOptions<MediaStatus> = {}): Promise<SettledMediaStatus> {
    const ended = (s: MediaStatus) => s.status !== 'processing';
    const events = new Events(this.transport, this.clock);
    const followed = await followEvents<MediaStatus>(
      {
        read: (signal) => this.status(taskId, { signal }),
        stream: ({ signal, onOpen }) => events.stream({ signal, onOpen, types: ['media.task_completed', 'media.task_failed'] }),
        // The task's end only marks it ended: it is read again at once, with its files, before anyone sees it.
        apply: (s, e) =>
          (e.type === 'media.task_completed' || e.type === 'media.task_failed') && e.data.task_id === taskId ? ({ ...s, status: e.data.status } as MediaStatus) : s,
      },
      `Media task ${taskId}`,
      ended,
      options,
    );
    if (followed !== undefined) return followed as SettledMediaStatus;
    const done = await pollUntil(
      (signal) => this.status(taskId, { signal }),
      ended,
      `Media task ${taskId}`,
      options,
      this.clock,
    );
    return done as SettledMediaStatus;
  }
}
