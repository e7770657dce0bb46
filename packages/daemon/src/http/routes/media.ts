import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { createHash } from 'node:crypto';
import { API_PREFIX, MediaUploadQuerySchema, ROUTES, type MediaLibrary, type MediaStatus, type MediaUploadResponse, type PrepareResponse } from '@socialpub/core';
import { formatBytes } from '../../media/format-bytes';
import { MediaError } from '../../net/media-error';
import { EmptyUploadError } from '../../media/receive-upload';
import type { MediaService, ReceivedUpload } from '../../media/media-service';
import { IDEMPOTENCY_TTL_MS, type IdempotencyRecord, type IdempotencyRepository } from '../../store/idempotency';
import type { AppEnv } from '../env';
import { ApiError, invalid, issuesToDetails } from '../errors';
import { mountRoutes, type MountOptions } from '../route-table/mount-route';

export interface MediaRoutesDeps {
  media: MediaService;
  /** Idempotency-Key records: POST /prepare's (through the mount) and POST /upload's (the body is a stream, so the route keeps them itself). */
  idempotency?: IdempotencyRepository;
  /** Check each answer against its declared schema (tests). */
  validateResponses?: boolean;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const DECIMAL = /^\d+$/;

/**
 * POST /media/prepare, POST /media/upload, GET /media/status/{task_id} and GET /media/library (declared in core's
 * route table), as an app app.ts mounts under /api/agents/v1/media behind auth; the
 * declarations give each its rate class and POST /prepare its Idempotency-Key.
 */
export function createMediaRoutes({ media, idempotency, validateResponses }: MediaRoutesDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const uploadsInFlight = new Set<string>();
  const records: IdempotencyRepository = idempotency ?? memoryRecords();
  const mounting: MountOptions = { store: { idempotency: records }, clock: media.clock, under: `${API_PREFIX}/media`, validateResponses: validateResponses ?? false };

  mountRoutes(app, ROUTES, {
    'media.prepare': ({ body }, c): PrepareResponse => {
      const { urls } = body;
      // The form of each URL is checked now, so a typo is a 400 rather than a failed file later.
      const problems = media.checkUrls(urls);
      if (problems.length) throw invalid(problems.map((p) => ({ path: `urls.${p.index}`, message: p.message })));
      const { taskId } = media.prepare(c.get('user').id, urls);
      const n = urls.length;
      return { success: true, task_id: taskId, message: `preparing ${n} file${n === 1 ? '' : 's'}; poll GET /media/status/${taskId} until it is completed` };
    },

    /**
     * POST /upload (an extension): the raw bytes of one file as the body, streamed to disk
     * (never buffered), kept like a prepared file; answers the task, already completed.
     * Outside the 10 MB JSON body limit (its declaration's body kind): the media cap applies instead.
     */
    'media.upload': {
      raw: true,
      handle: async (c) => {
        const query = MediaUploadQuerySchema.safeParse({ filename: c.req.query('filename') });
        if (!query.success) throw invalid(issuesToDetails(query.error.issues).map((d) => ({ ...d, path: `filename` })));
        const declared = c.req.header('content-length');
        if (declared !== undefined && DECIMAL.test(declared) && Number(declared) > media.maxBytes) {
          throw uploadTooLarge(`the file is ${formatBytes(Number(declared))}; the limit is ${formatBytes(media.maxBytes)}`);
        }
        const key = c.req.header('idempotency-key');
        if (key !== undefined && !IDEMPOTENCY_KEY.test(key)) {
          throw new ApiError('invalid_request', 'Idempotency-Key must be 1 to 255 visible ASCII characters', [
            { path: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' },
          ]);
        }
        const body = c.req.raw.body ?? new ReadableStream<Uint8Array>({ start: (ctrl) => ctrl.close() });
        const user = c.get('user');
        const slot = key === undefined ? null : `${user.id}\n${key}`;
        if (slot !== null) {
          if (uploadsInFlight.has(slot)) throw new ApiError('idempotency_conflict', 'a request with this Idempotency-Key is still being processed');
          uploadsInFlight.add(slot);
        }
        try {
          let upload: ReceivedUpload;
          try {
            upload = await media.receiveUpload(body, { filename: query.data.filename, signal: c.req.raw.signal });
          } catch (err) {
            throw uploadError(err);
          }
          // The "body" of an upload, for Idempotency-Key: its bytes (by sha256) and its name.
          const bodyHash = createHash('sha256').update(`${upload.sha256}\n${upload.name}`).digest('hex');
          const existing = key !== undefined ? records.find(user.id, UPLOAD_ROUTE, key, media.clock.now()) : null;
          if (existing) {
            await media.discardUpload(upload);
            if (existing.bodyHash !== bodyHash) throw new ApiError('idempotency_conflict', 'this Idempotency-Key was already used with a different file');
            c.header('Idempotent-Replayed', 'true');
            c.header('Content-Type', 'application/json');
            return c.body(existing.response, existing.status as 200);
          }
          const { taskId } = await media.keepUpload(user.id, upload);
          const status = media.status(taskId)?.status;
          if (!status) throw new Error(`uploaded task ${taskId} vanished`);
          if (key !== undefined) {
            records.save(user.id, UPLOAD_ROUTE, key, { bodyHash, status: 200, response: JSON.stringify(status), createdAt: media.clock.now() });
          }
          return status as MediaUploadResponse;
        } finally {
          if (slot !== null) uploadsInFlight.delete(slot);
        }
      },
    },

    'media.library': (_input, c): MediaLibrary => media.library(c.get('user').id),

    'media.status': ({ params }, c): MediaStatus => {
      const taskId = params.task_id;
      const found = media.status(taskId);
      if (!found) throw new ApiError('not_found', `no media task ${taskId}`);
      if (found.userId !== c.get('user').id) throw new ApiError('forbidden', 'this media task belongs to another user');
      return found.status;
    },
  }, mounting);

  return app;
}

/** Without a repository (the routes tested alone): the records in memory, for 24 h like the store's. */
function memoryRecords(): IdempotencyRepository {
  const records = new Map<string, IdempotencyRecord>();
  return {
    find: (userId, route, key, now) => {
      const r = records.get(`${userId}\n${route}\n${key}`);
      return r && r.createdAt > now - IDEMPOTENCY_TTL_MS ? r : null;
    },
    save: (userId, route, key, rec) => {
      const at = `${userId}\n${route}\n${key}`;
      const live = records.get(at);
      if (live && live.createdAt > rec.createdAt - IDEMPOTENCY_TTL_MS) return false;
      records.set(at, rec);
      return true;
    },
    prune: () => 0,
  };
}

const UPLOAD_ROUTE = 'media.upload';

/** 413 with Connection: close, so a client still sending a huge body is not read to its end. */
function uploadTooLarge(message: string): ApiError {
  return new ApiError('payload_too_large', message, [{ path: '(body)', message, code: 'too_large' }], { headers: { connection: 'close' } });
}

/** A refused upload as an API error: 413 past the cap, 415 for HTML or an unknown format. */
function uploadError(err: unknown): unknown {
  if (err instanceof EmptyUploadError) return new ApiError('invalid_request', err.message, [{ path: '(body)', message: 'empty' }]);
  if (!(err instanceof MediaError)) return err;
  if (err.code === 'too_large') return uploadTooLarge(err.message);
  if (err.code === 'html_page' || err.code === 'unsupported_format') {
    return new ApiError('unsupported_media_type', err.message, [{ path: '(body)', message: err.message, code: err.code }]);
  }
  return err;
}

const TOKEN = /^[0-9a-z]{32}$/;

/**
 * Prepared files, mounted by app.ts at /files without authentication (platforms fetch
 * them): GET and HEAD /files/<token>/<name> with Range support. The token is looked up
 * in SQLite; nothing from the URL ever becomes part of a file system path.
 */
export function createFileRoutes({ media }: MediaRoutesDeps): Hono {
  const app = new Hono();

  app.get('/:token/:name', async (c) => {
    const token = c.req.param('token');
    const file = TOKEN.test(token) ? media.store.byToken(token) : undefined;
    if (!file || file.name !== c.req.param('name')) throw new ApiError('not_found', 'no such prepared file');
    if (media.isExpired(file)) throw new ApiError('gone', 'this prepared file has expired (prepared files last 24 hours); prepare it again');
    if (file.status !== 'ready' || file.size === null) throw new ApiError('not_found', 'no such prepared file');

    let handle;
    try {
      handle = await open(media.pathOf(file), 'r');
    } catch {
      // Swept between the lookup and the open.
      throw new ApiError('gone', 'this prepared file has expired; prepare it again');
    }
    const size = file.size;
    if ((await handle.stat()).size !== size) {
      // Prepared files are not fsynced: after a power loss one may be cut short. Never serve that.
      await handle.close();
      throw new ApiError('gone', 'this prepared file is no longer intact; prepare it again');
    }
    const etag = `"${file.sha256}"`;
    const headers: Record<string, string> = {
      'content-type': file.mime_type ?? 'application/octet-stream',
      'accept-ranges': 'bytes',
      etag,
      'last-modified': new Date(file.prepared_at ?? 0).toUTCString(),
      // Caches may keep it at most an hour, and never past its expiry.
      'cache-control': `public, max-age=${Math.max(0, Math.min(3600, Math.floor(((file.expires_at ?? 0) - media.clock.now()) / 1000)))}`,
      'content-disposition': `inline; filename="${file.name}"`,
      'x-content-type-options': 'nosniff',
    };
    let status = 200;
    let start = 0;
    let end = size - 1;
    const ifRange = c.req.header('if-range');
    const rangeHeader = ifRange === undefined || ifRange === etag ? c.req.header('range') : undefined;
    const range = rangeHeader === undefined ? null : parseRange(rangeHeader, size);
    if (range === 'unsatisfiable') {
      await handle.close();
      return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
    }
    if (range) {
      ({ start, end } = range);
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    } else if (etagMatches(c.req.header('if-none-match'), etag)) {
      await handle.close();
      return new Response(null, { status: 304, headers });
    }
    headers['content-length'] = String(end - start + 1);
    if (c.req.method === 'HEAD') {
      await handle.close();
      return new Response(null, { status, headers });
    }
    const stream = handle.createReadStream({ start, end, highWaterMark: 256 * 1024 });
    return new Response(Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>, { status, headers });
  });

  return app;
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`. Several ranges, or a header
 * that is not a byte range, are ignored (the whole file is sent, as RFC 9110 allows).
 */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  if (m[2] !== '' && Number(m[2]) < start) return null; // not a valid range: ignored
  if (start >= size) return 'unsatisfiable';
  const last = m[2] === '' ? size - 1 : Number(m[2]);
  return { start, end: Math.min(last, size - 1) };
}

/**
 * If-None-Match uses the weak comparison (RFC 9110 13.1.2): `W/"x"` matches `"x"`, any
 * tag of a comma-separated list may match, and `*` matches any existing file.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const want = opaque(etag);
  return header.split(',').some((tag) => opaque(tag) === want);
}
