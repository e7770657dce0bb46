import { readdirSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { MediaStatusSchema, MediaUploadResponseSchema } from '@socialpub/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { MediaSweeper } from '../../src/media/media-sweeper';
import { ManualClock } from '../../src/util/clock';
import { createLogger } from '../../src/util/logger';
import { harness, SAMPLES, sha256, tempDir } from './helpers';

const CAP = 16 * 1024 * 1024; // above the 10 MB JSON limit, low enough to cross quickly
interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * POSTs a body from an iterable of chunks over a plain socket, stopping as soon as the
 * answer arrives (the daemon answers a body past the cap before it ends), so a test can
 * offer far more bytes than it ever allocates.
 */
function post(url: string, headers: Record<string, string>, chunks: Iterable<Buffer>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(url, { method: 'POST', headers }, (res) => {
      answered = true;
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    // Writing into a socket the daemon closed after answering fails; the answer is what counts.
    req.on('error', (err) => {
      if (!answered) reject(err);
    });
    const it = chunks[Symbol.iterator]();
    const pump = () => {
      while (!answered && !req.destroyed) {
        const next = it.next();
        if (next.done) return void req.end();
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
    };
    pump();
  });
}

function* repeat(first: Buffer, chunk: Buffer, times: number): Generator<Buffer> {
  yield first;
  for (let i = 0; i < times; i++) yield chunk;
}

describe('POST /media/upload in the running daemon', () => {
  const tmp = tempDir();
  let daemon: DaemonHandle;
  let key: string;

  beforeAll(async () => {
    const config = resolveConfig({ dataDir: tmp.dir, port: 0, mediaMaxBytes: CAP }, { SOCIALPUB_RATE_LIMITS: 'off' });
    daemon = await startDaemon(config, { logger: createLogger({ level: 'silent' }) });
    const { user } = daemon.store.users.ensure('upload@example.com', Date.now());
    key = daemon.store.apiKeys.create(user.id, 'test', Date.now()).apiKey;
  });
  afterAll(async () => {
    await daemon.close();
    tmp.cleanup();
  });

  const upload = (body: Buffer | Iterable<Buffer>, query = '', headers: Record<string, string> = {}) =>
    post(`${daemon.url}/api/agents/v1/media/upload${query}`, { 'x-api-key': key, 'content-type': 'application/octet-stream', ...headers }, Buffer.isBuffer(body) ? [body] : body);
  const json = (a: Answer) => JSON.parse(a.body.toString('utf8')) as Record<string, unknown>;
  const tmpFiles = () => readdirSync(join(tmp.dir, 'media', 'tmp'));

  it('stores an image, answers a completed task, and serves the same bytes at its prepared URL', async () => {
    const answer = await upload(SAMPLES.png, '?filename=holiday%20photo.PNG', { 'content-type': 'image/png' });
    expect(answer.status).toBe(200);
    const task = MediaUploadResponseSchema.parse(json(answer));
    expect(task).toMatchObject({ status: 'completed', progress: { total: 1, completed: 1, failed: 0 }, failed: [] });
    const [file] = task.files;
    expect(file).toMatchObject({ original_url: 'upload:holiday-photo.png', type: 'image', mime_type: 'image/png', size: SAMPLES.png.length, sha256: sha256(SAMPLES.png) });
    expect(file?.prepared_url).toMatch(new RegExp(`^${daemon.url}/files/[0-9a-z]{32}/holiday-photo\\.png$`));

    // The same task through GET /media/status, as for any prepared file.
    const status = await fetch(`${daemon.url}/api/agents/v1/media/status/${task.task_id}`, { headers: { 'x-api-key': key } });
    expect(MediaStatusSchema.parse(await status.json())).toEqual(task);
    const served = await fetch(file?.prepared_url ?? '');
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(SAMPLES.png));
  });

  it('streams a video larger than the 10 MB JSON limit to disk and serves it back identical', async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x5a);
    const chunks = [...repeat(SAMPLES.mp4, chunk, 44)]; // ~11 MB
    const whole = Buffer.concat(chunks);
    const answer = await upload(chunks, '?filename=talk.mp4', { 'content-type': 'video/mp4' });
    expect(answer.status).toBe(200);
    const [file] = MediaUploadResponseSchema.parse(json(answer)).files;
    expect(file).toMatchObject({ type: 'video', mime_type: 'video/mp4', size: whole.length, sha256: sha256(whole) });
    const served = await fetch(file?.prepared_url ?? '');
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(sha256(whole));
  });

  it('refuses a declared length past the cap before reading the body', async () => {
    const answer = await upload(SAMPLES.jpeg, '', { 'content-length': String(CAP + 1) });
    expect(answer.status).toBe(413);
    expect(json(answer)).toMatchObject({ success: false, error: { code: 'payload_too_large', details: [{ code: 'too_large' }] } });
  });

  it('stops a streamed body at the first byte past the cap, leaving nothing behind', async () => {
    const chunk = Buffer.alloc(64 * 1024, 1); // offered 4,096 times (256 MB); one buffer allocated
    const answer = await upload(repeat(SAMPLES.mp4, chunk, 4096), '?filename=huge.mp4');
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    expect(json(answer)).toMatchObject({ error: { code: 'payload_too_large' } });
    expect(tmpFiles()).toEqual([]);
  });

  it('refuses an HTML page and an unknown format with 415 and the media error code', async () => {
    const html = await upload(SAMPLES.html, '?filename=photo.jpg', { 'content-type': 'image/jpeg' });
    expect(html.status).toBe(415);
    expect(json(html)).toMatchObject({ error: { code: 'unsupported_media_type', details: [{ path: '(body)', code: 'html_page' }] } });
    const zip = await upload(SAMPLES.zip);
    expect(zip.status).toBe(415);
    expect(json(zip)).toMatchObject({ error: { details: [{ code: 'unsupported_format' }] } });
    expect(tmpFiles()).toEqual([]);
  });

  it('answers 400 for an empty body', async () => {
    const answer = await upload(Buffer.alloc(0));
    expect(answer.status).toBe(400);
    expect(json(answer)).toMatchObject({ error: { code: 'invalid_request' } });
  });

  it('needs an API key', async () => {
    const answer = await post(`${daemon.url}/api/agents/v1/media/upload`, {}, [SAMPLES.png]);
    expect(answer.status).toBe(401);
    expect(json(answer)).toMatchObject({ error: { code: 'unauthorized' } });
  });

  it('keeps only a safe last segment of a path-traversal file name', async () => {
    for (const name of ['../../../etc/passwd.png', '..\\..\\windows\\system32\\evil.exe', '%2e%2e%2f%2e%2e%2fsecret']) {
      const answer = await upload(SAMPLES.png, `?filename=${encodeURIComponent(name)}`);
      expect(answer.status).toBe(200);
      const [file] = MediaUploadResponseSchema.parse(json(answer)).files;
      const last = new URL(file?.prepared_url ?? '').pathname.split('/').pop();
      expect(last).toMatch(/^[A-Za-z0-9_-][A-Za-z0-9._-]*\.png$/);
      expect(file?.original_url).not.toContain('..');
    }
    // Nothing was written outside the files dir: it holds only token-named files.
    expect(readdirSync(join(tmp.dir, 'media', 'files')).every((f) => /^[0-9a-z]{32}$/.test(f))).toBe(true);
  });

  it('replays an upload sent again with the same Idempotency-Key and refuses other bytes under it', async () => {
    const first = await upload(SAMPLES.gif, '?filename=a.gif', { 'idempotency-key': 'up-1' });
    const again = await upload(SAMPLES.gif, '?filename=a.gif', { 'idempotency-key': 'up-1' });
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again).task_id).toBe(json(first).task_id);
    const other = await upload(SAMPLES.jpeg, '?filename=a.gif', { 'idempotency-key': 'up-1' });
    expect(other.status).toBe(409);
    expect(json(other)).toMatchObject({ error: { code: 'idempotency_conflict' } });
    expect(tmpFiles()).toEqual([]);
  });
});

describe('an uploaded file over its lifetime', () => {
  const DAY = 24 * 3_600_000;

  it('is kept past 24 h while a scheduled target uses its URL, then swept like a prepared file', async () => {
    const clock = new ManualClock(Date.UTC(2026, 11, 1, 9));
    const h = harness({ clock });
    try {
      const body = new ReadableStream<Uint8Array>({
        start(ctrl) {
          ctrl.enqueue(new Uint8Array(SAMPLES.jpeg));
          ctrl.close();
        },
      });
      const upload = await h.media.receiveUpload(body, { filename: 'kept.jpg' });
      const { taskId } = await h.media.keepUpload(h.userId, upload);
      const task = h.media.status(taskId)?.status;
      if (task?.status !== 'completed') throw new Error('upload task not completed');
      const url = task.files[0]?.prepared_url ?? '';
      expect(task.files[0]?.expires_at).toBe(new Date(clock.now() + DAY).toISOString());
      const now = clock.now();
      h.db
        .prepare(`INSERT INTO jobs (id, user_id, caption, platforms, media_urls, sort_at, created_at, updated_at) VALUES ('job_1', ?, 'hi', '["twitter"]', ?, ?, ?, ?)`)
        .run(h.userId, JSON.stringify([url]), now, now, now);
      h.db
        .prepare(`INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('tgt_1', 'job_1', ?, 'twitter', 'tweet', ?, 'scheduled', ?)`)
        .run(h.userId, now + 2 * DAY, now);
      await clock.advance(DAY + 60_000);
      const sweeper = new MediaSweeper(h.media);
      expect(await sweeper.sweep()).toEqual({ deleted: 0, kept: 1 });
      const file = h.media.fileForUrl(url);
      expect(file && h.media.isExpired(file)).toBe(false);
      h.db.prepare(`UPDATE targets SET status = 'published' WHERE id = 'tgt_1'`).run();
      expect(await sweeper.sweep()).toEqual({ deleted: 1, kept: 0 });
      expect(h.media.fileForUrl(url)?.status).toBe('expired');
    } finally {
      await h.cleanup();
    }
  });
});
