import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MEDIA_BYTES } from '@socialpub/core';
import { AddressGuard } from '../../src/net/address-guard';
import { MediaService } from '../../src/media/media-service';
import { MediaStore } from '../../src/store/media-files';
import { openDatabase } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';
import { ACCEPTED_FORMATS, finished, harness, loopbackResolver, prepareAndWait, SAMPLES, send, sha256, startServer, type Handler, type Harness, type TestServer } from './helpers';

/** Resolves when `emitter`'s next matching event arrives. */
function nextEvent<T>(media: MediaService, event: 'file' | 'task', match: (e: T) => boolean): Promise<T> {
  return new Promise((resolve) => {
    const on = (e: T) => {
      if (!match(e)) return;
      media.events.off(event, on as never);
      resolve(e);
    };
    media.events.on(event, on as never);
  });
}

/** A response that sends its headers and first bytes, then waits for `release()`. */
function gate(first: Buffer) {
  const held: ServerResponse[] = [];
  let arrivals = 0;
  const waiters: { n: number; resolve: () => void }[] = [];
  const handler: Handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.write(first);
    held.push(res);
    arrivals++;
    for (const w of waiters.filter((w) => arrivals >= w.n)) w.resolve();
  };
  return {
    handler,
    held,
    /** Resolves once `n` requests have arrived. */
    arrivals: (n: number) => new Promise<void>((resolve) => (arrivals >= n ? resolve() : waiters.push({ n, resolve }))),
    release: () => {
      for (const res of held.splice(0)) res.end(Buffer.alloc(10, 1));
    },
  };
}

describe('preparing files', () => {
  let server: TestServer;
  let h: Harness;
  let fastHits = 0;
  const routes: Record<string, Handler> = {};

  beforeAll(async () => {
    server = await startServer((req, res, url) => {
      const handler = routes[url.pathname];
      if (handler) handler(req, res, url);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('nope');
    });
    for (const [name, bytes] of Object.entries(SAMPLES)) routes[`/${name}`] = send(bytes);
    routes['/fast.jpg'] = (req, res, url) => {
      fastHits++;
      send(SAMPLES.jpeg, 'image/jpeg')(req, res, url);
    };
    routes['/broken'] = (_req, res) => res.writeHead(500).end('oops');
  });
  afterAll(() => server.close());
  afterEach(async () => h?.cleanup());

  const url = (path: string) => `${server.origin}${path}`;

  it.each(ACCEPTED_FORMATS)('prepares %s, judged from its bytes, with size and sha256', async (name, type, mime) => {
    h = harness();
    const { status } = await prepareAndWait(h.media, h.userId, [url(`/${name}`)]);
    expect(status.status).toBe('completed');
    const bytes = SAMPLES[name];
    expect(status.files[0]).toMatchObject({ type, mime_type: mime, size: bytes.length, sha256: sha256(bytes) });
    expect(status.progress).toEqual({ total: 1, completed: 1, failed: 0 });
  });

  it.each(['webp', 'heic', 'zip'] as const)('refuses %s as unsupported_format', async (name) => {
    h = harness();
    const { status } = await prepareAndWait(h.media, h.userId, [url(`/${name}`)]);
    expect(status.failed[0]?.error.code).toBe('unsupported_format');
  });

  it('completes a partly failed task, listing what failed and why', async () => {
    h = harness();
    const { status } = await prepareAndWait(h.media, h.userId, [url('/jpeg'), url('/missing'), url('/html'), url('/mp4'), url('/broken')]);
    expect(status.status).toBe('completed');
    expect(status.progress).toEqual({ total: 5, completed: 2, failed: 3 });
    expect(status.files.map((f) => f.original_url)).toEqual([url('/jpeg'), url('/mp4')]);
    expect(status.failed).toEqual([
      { original_url: url('/missing'), error: { code: 'http_error', message: 'the source answered 404 Not Found' } },
      { original_url: url('/html'), error: { code: 'html_page', message: expect.stringContaining('HTML page') } },
      { original_url: url('/broken'), error: { code: 'http_error', message: 'the source answered 500 Internal Server Error' } },
    ]);
    expect('error' in status).toBe(false);
  });

  it('fails a task when no file could be prepared', async () => {
    h = harness();
    const { status } = await prepareAndWait(h.media, h.userId, [url('/zip'), url('/missing')]);
    expect(status.status).toBe('failed');
    if (status.status !== 'failed') return;
    expect(status.error.code).toBe('all_files_failed');
    expect(status.files).toEqual([]);
    expect(status.failed.map((f) => f.error.code)).toEqual(['unsupported_format', 'http_error']);
    expect(status.progress).toEqual({ total: 2, completed: 0, failed: 2 });
  });

  it('shows progress while processing', async () => {
    h = harness();
    const g = gate(SAMPLES.mp4);
    routes['/gated'] = g.handler;
    const { taskId } = h.media.prepare(h.userId, [url('/jpeg'), url('/gated')]);
    await Promise.all([g.arrivals(1), nextEvent(h.media, 'file', (e: { status: string }) => e.status === 'ready')]);
    expect(h.media.status(taskId)?.status).toEqual({ success: true, task_id: taskId, status: 'processing', progress: { total: 2, completed: 1, failed: 0 } });
    g.release();
    await h.media.settled(taskId);
    expect(finished(h.media.status(taskId)!.status).status).toBe('completed');
  });

  it('runs at most `concurrency` downloads at once', async () => {
    h = harness({ concurrency: 2 });
    const g = gate(SAMPLES.mp4);
    routes['/gated'] = g.handler;
    const { taskId } = h.media.prepare(h.userId, [1, 2, 3, 4, 5].map((i) => url(`/gated?n=${i}`)));
    await g.arrivals(2);
    const states = h.media.store.files(taskId).map((f) => f.status);
    expect(states.filter((s) => s === 'fetching')).toHaveLength(2);
    expect(states.filter((s) => s === 'pending')).toHaveLength(3);
    routes['/gated'] = send(SAMPLES.mp4); // the rest are answered at once
    g.release();
    await h.media.settled(taskId);
    expect(finished(h.media.status(taskId)!.status).files).toHaveLength(5);
  });

  describe('the 500 MB cap', () => {
    it('refuses a declared Content-Length over 500 MB without reading the body', async () => {
      h = harness();
      let closed!: () => void;
      const socketClosed = new Promise<void>((r) => (closed = r));
      routes['/declared-huge'] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(MAX_MEDIA_BYTES + 1) });
        res.write(SAMPLES.mp4);
        res.on('close', () => closed());
      };
      const { status } = await prepareAndWait(h.media, h.userId, [url('/declared-huge')]);
      expect(status.failed[0]?.error).toEqual({ code: 'too_large', message: 'the file is 500 MB; the limit is 500 MB' });
      await socketClosed; // the connection was dropped, not drained
    });

    it('stops a streamed 501 MB body at the cap and keeps nothing', async () => {
      h = harness();
      let written = 0;
      const chunk = Buffer.alloc(1024 * 1024, 0x42);
      routes['/stream-501mb'] = (_req, res) => {
        res.writeHead(200, { 'content-type': 'video/mp4' }); // chunked: no length declared
        written += SAMPLES.mp4.length;
        res.write(SAMPLES.mp4);
        const pump = () => {
          while (written < 501 * 1024 * 1024 && !res.destroyed) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          if (!res.destroyed) res.end();
        };
        res.on('close', () => (written = Math.min(written, Number.MAX_SAFE_INTEGER)));
        pump();
      };
      const { status } = await prepareAndWait(h.media, h.userId, [url('/stream-501mb')]);
      expect(status.failed[0]?.error).toEqual({ code: 'too_large', message: 'the file is larger than the limit of 500 MB' });
      expect(written).toBeGreaterThan(MAX_MEDIA_BYTES - 8 * 1024 * 1024); // it really streamed up to the cap...
      expect(readdirSync(h.media.tmpDir)).toEqual([]); // ...and the partial file is gone
      expect(readdirSync(h.media.filesDir)).toEqual([]);
    });
  });

  describe('the 10-minute deadline', () => {
    it('fails the task with timeout, keeping the files that were ready', async () => {
      const clock = new ManualClock();
      h = harness({ clock });
      const g = gate(SAMPLES.mp4);
      routes['/gated'] = g.handler;
      const { taskId } = h.media.prepare(h.userId, [url('/jpeg'), url('/gated')]);
      await Promise.all([g.arrivals(1), nextEvent(h.media, 'file', (e: { status: string }) => e.status === 'ready')]);
      await clock.advance(9 * 60_000 + 59_999);
      expect(h.media.status(taskId)?.status.status).toBe('processing');
      await clock.advance(1);
      await h.media.settled(taskId);
      const status = finished(h.media.status(taskId)!.status);
      expect(status.status).toBe('failed');
      if (status.status !== 'failed') return;
      expect(status.error).toEqual({ code: 'timeout', message: 'the task passed its 10-minute limit; 1 of 2 files were prepared' });
      expect(status.files.map((f) => f.original_url)).toEqual([url('/jpeg')]);
      expect(status.failed).toEqual([{ original_url: url('/gated'), error: { code: 'timeout', message: 'the task passed its 10-minute limit' } }]);
      expect(readdirSync(h.media.tmpDir)).toEqual([]);
      g.release();
    });

    it('counts from the task’s creation, across a restart', async () => {
      const clock = new ManualClock();
      h = harness({ clock });
      const g = gate(SAMPLES.mp4);
      routes['/gated'] = g.handler;
      const { taskId } = h.media.prepare(h.userId, [url('/gated')]);
      await g.arrivals(1);
      await h.media.close();
      g.release();
      clock.set(clock.now() + 11 * 60_000); // the daemon was down past the deadline
      const again = new MediaService({ files: new MediaStore(h.db), dir: join(h.dir, 'media'), publicBaseUrl: 'http://127.0.0.1:8787', clock, guard: new AddressGuard({ allowPrivate: true, resolve: loopbackResolver }) });
      expect(await again.resume()).toBe(1);
      await again.settled(taskId);
      const status = finished(again.status(taskId)!.status);
      expect(status.status === 'failed' && status.error.code).toBe('timeout');
      await again.close();
    });
  });

  describe('a restart mid-task', () => {
    it('resumes after a crash: the finished file is kept, the unfinished one starts again', async () => {
      h = harness();
      fastHits = 0;
      const g = gate(SAMPLES.mp4);
      routes['/gated'] = g.handler;
      const { taskId } = h.media.prepare(h.userId, [url('/fast.jpg'), url('/gated')]);
      await Promise.all([g.arrivals(1), nextEvent(h.media, 'file', (e: { status: string }) => e.status === 'ready')]);
      await h.media.close();
      g.held.splice(0).forEach((r) => r.destroy());

      // What a crash leaves behind: a file still marked fetching, a partial download, a stray final file.
      const gated = h.media.store.files(taskId)[1]!;
      expect(gated.status).toBe('pending'); // a clean shutdown had put it back
      h.db.prepare(`UPDATE media_files SET status = 'fetching' WHERE id = ?`).run(gated.id);
      writeFileSync(join(h.media.tmpDir, `${gated.id}.part`), 'half a file');
      writeFileSync(h.media.pathOf(gated), 'stray');
      h.db.close();

      routes['/gated'] = send(SAMPLES.mp4, 'video/mp4');
      const db = openDatabase(join(h.dir, 'socialpub.db'));
      const restarted = new MediaService({ files: new MediaStore(db), dir: join(h.dir, 'media'), publicBaseUrl: 'http://127.0.0.1:8787', guard: new AddressGuard({ allowPrivate: true, resolve: loopbackResolver }) });
      try {
        expect(await restarted.resume()).toBe(1);
        await restarted.settled(taskId);
        const status = finished(restarted.status(taskId)!.status);
        expect(status.status).toBe('completed');
        expect(status.files.map((f) => [f.original_url, f.sha256])).toEqual([
          [url('/fast.jpg'), sha256(SAMPLES.jpeg)],
          [url('/gated'), sha256(SAMPLES.mp4)],
        ]);
        expect(fastHits).toBe(1); // not fetched twice
        expect(existsSync(join(restarted.tmpDir, `${gated.id}.part`))).toBe(false);
      } finally {
        await restarted.close();
        db.close();
        h = { ...h, db: openDatabase(':memory:') } as Harness; // cleanup closes this one
      }
    });
  });
});
