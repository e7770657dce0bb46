import { existsSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileRoutes, createMediaRoutes, parseRange } from '../../src/http/routes/media';
import { AddressGuard } from '../../src/net/address-guard';
import { createMediaLookup } from '../../src/media/media-lookup';
import { createMediaResolver } from '../../src/media/media-resolver';
import { MediaSweeper } from '../../src/media/media-sweeper';
import { MediaService } from '../../src/media/media-service';
import { MediaStore } from '../../src/store/media-files';
import { PermanentError, RetryableError } from '../../src/platforms/errors';
import { ManualClock } from '../../src/util/clock';
import { addUser, harness, loopbackResolver, prepareAndWait, SAMPLES, send, startServer, testApp, type Harness, type TestServer } from './helpers';

const DAY = 24 * 3_600_000;
// Response bodies are checked field by field below.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const json = async (res: Response | Promise<Response>): Promise<any> => (await res).json();
const video = Buffer.concat([SAMPLES.mp4, Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251))]);

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    '/clip.mp4': send(video, 'video/mp4'),
    '/photo.jpg': send(SAMPLES.jpeg, 'image/jpeg'),
    '/login.jpg': send(SAMPLES.html, 'text/html'),
    '/busy.jpg': (_req, res) => res.writeHead(503).end(),
  });
});
afterAll(() => server.close());

let h: Harness;
let clock: ManualClock;
let app: ReturnType<typeof testApp>;
beforeEach(() => {
  clock = new ManualClock();
  h = harness({ clock });
  app = testApp((a) => {
    a.route('/api/agents/v1/media', createMediaRoutes({ media: h.media }));
    a.route('/files', createFileRoutes({ media: h.media }));
  });
});
afterEach(() => h.cleanup());

async function prepared(path = '/clip.mp4') {
  const { status } = await prepareAndWait(h.media, h.userId, [`${server.origin}${path}`]);
  const file = status.files[0];
  if (!file) throw new Error(`not prepared: ${JSON.stringify(status)}`);
  return { file, path: new URL(file.prepared_url).pathname };
}

describe('GET /files/<token>/<name>', () => {
  it('serves the file with its Content-Type, length and validators', async () => {
    const { file, path } = await prepared();
    expect(file.prepared_url).toMatch(/^http:\/\/127\.0\.0\.1:8787\/files\/[0-9a-z]{32}\/clip\.mp4$/);
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('video/mp4');
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('etag')).toBe(`"${file.sha256}"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await res.arrayBuffer()).equals(video)).toBe(true);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { path } = await prepared();
    const res = await app.request(path, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe(String(video.length));
    expect((await res.arrayBuffer()).byteLength).toBe(0);
  });

  it.each([
    ['bytes=0-9', 0, 9],
    ['bytes=100-', 100, video.length - 1],
    ['bytes=-5', video.length - 5, video.length - 1],
    ['bytes=50-999999', 50, video.length - 1],
  ])('answers Range %s with 206 and exactly those bytes', async (range, start, end) => {
    const { path } = await prepared();
    const res = await app.request(path, { headers: { range } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes ${start}-${end}/${video.length}`);
    expect(res.headers.get('content-length')).toBe(String(end - start + 1));
    expect(Buffer.from(await res.arrayBuffer()).equals(video.subarray(start, end + 1))).toBe(true);
  });

  it('answers 416 with the size for a range past the end', async () => {
    const { path } = await prepared();
    const res = await app.request(path, { headers: { range: `bytes=${video.length}-` } });
    expect(res.status).toBe(416);
    expect(res.headers.get('content-range')).toBe(`bytes */${video.length}`);
  });

  it('sends the whole file for several ranges or a stale If-Range', async () => {
    const { path } = await prepared();
    expect((await app.request(path, { headers: { range: 'bytes=0-1,5-6' } })).status).toBe(200);
    expect((await app.request(path, { headers: { range: 'bytes=0-1', 'if-range': '"stale"' } })).status).toBe(200);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const { file, path } = await prepared();
    expect((await app.request(path, { headers: { 'if-none-match': `"${file.sha256}"` } })).status).toBe(304);
  });

  it('answers 304 when a list or a weak tag in If-None-Match matches (weak comparison, RFC 9110 13.1.2)', async () => {
    const { file, path } = await prepared();
    for (const header of [`W/"${file.sha256}", "x"`, `"x", "${file.sha256}"`, '*', `W/"${file.sha256}"`]) {
      expect((await app.request(path, { headers: { 'if-none-match': header } })).status, header).toBe(304);
    }
    expect((await app.request(path, { headers: { 'if-none-match': '"x", W/"y"' } })).status).toBe(200);
  });

  it('answers 404 for unknown tokens, wrong names and traversal attempts', async () => {
    const { path } = await prepared();
    const token = path.split('/')[2];
    for (const p of [
      '/files/0123456789abcdefghijklmnopqrstuv/clip.mp4',
      `/files/${token}/other.mp4`,
      `/files/${token}/..%2F..%2Fsocialpub.db`,
      '/files/..%2F..%2Fsocialpub.db/x',
      `/files/${token}`,
      '/files/../socialpub.db',
    ]) {
      const res = await app.request(p);
      expect(res.status, p).toBe(404);
    }
    const body = await json(app.request(`/files/${token}/other.mp4`));
    expect(body).toEqual({ success: false, error: { code: 'not_found', message: 'no such prepared file' } });
  });

  it('answers 410 once the 24 hours are up, before and after the sweep', async () => {
    const { path } = await prepared();
    const row = h.media.fileForUrl(`http://x${path}`)!;
    await clock.advance(DAY - 1);
    expect((await app.request(path)).status).toBe(200);
    await clock.advance(1);
    const gone = await app.request(path);
    expect(gone.status).toBe(410);
    expect((await json(gone)).error.code).toBe('gone');
    expect(existsSync(h.media.pathOf(row))).toBe(true); // not swept yet
    expect(await new MediaSweeper(h.media).sweep()).toEqual({ deleted: 1, kept: 0 });
    expect(existsSync(h.media.pathOf(row))).toBe(false);
    expect((await app.request(path)).status).toBe(410);
  });
});

describe('the sweeper', () => {
  function scheduleJob(mediaUrl: string, status: string) {
    const now = clock.now();
    h.db
      .prepare(`INSERT INTO jobs (id, user_id, caption, platforms, media_urls, sort_at, created_at, updated_at) VALUES ('job_1', ?, 'hi', '["twitter"]', ?, ?, ?, ?)`)
      .run(h.userId, JSON.stringify([mediaUrl]), now, now, now);
    h.db
      .prepare(`INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES ('tgt_1', 'job_1', ?, 'twitter', 'tweet', ?, ?, ?)`)
      .run(h.userId, now + 2 * DAY, status, now);
  }

  it('keeps a file that a scheduled target still needs, serving it until the target is done', async () => {
    const { file, path } = await prepared();
    // The job was made when the daemon had another public URL: the token still matches.
    scheduleJob(file.prepared_url.replace('127.0.0.1:8787', 'media.example.com'), 'scheduled');
    await clock.advance(DAY + 60_000);
    const sweeper = new MediaSweeper(h.media);
    expect(await sweeper.sweep()).toEqual({ deleted: 0, kept: 1 });
    expect((await app.request(path)).status).toBe(200);

    h.db.prepare(`UPDATE targets SET status = 'publishing' WHERE id = 'tgt_1'`).run();
    expect(await sweeper.sweep()).toEqual({ deleted: 0, kept: 1 });
    h.db.prepare(`UPDATE targets SET status = 'published' WHERE id = 'tgt_1'`).run();
    expect((await app.request(path)).status).toBe(410);
    expect(await sweeper.sweep()).toEqual({ deleted: 1, kept: 0 });
  });

  it('catches up after a restart on what expired while the daemon was down', async () => {
    const { path } = await prepared();
    await h.media.close();
    clock.set(clock.now() + 3 * DAY);
    const restarted = new MediaService({ files: new MediaStore(h.db), dir: `${h.dir}/media`, publicBaseUrl: 'http://127.0.0.1:8787', clock, guard: new AddressGuard({ allowPrivate: true, resolve: loopbackResolver }) });
    await restarted.resume();
    expect(await new MediaSweeper(restarted).sweep()).toEqual({ deleted: 1, kept: 0 });
    expect(restarted.fileForUrl(`http://x${path}`)?.status).toBe('expired');
  });

  it('forgets a finished task a week after its files are gone', async () => {
    const { status } = await prepareAndWait(h.media, h.userId, [`${server.origin}/photo.jpg`]);
    const sweeper = new MediaSweeper(h.media);
    await clock.advance(DAY);
    await sweeper.sweep();
    expect(h.media.status(status.task_id)?.status.status).toBe('completed'); // still reported, as expired
    await clock.advance(7 * DAY);
    await sweeper.sweep();
    expect(h.media.status(status.task_id)).toBeUndefined();
  });

  it('sweeps on its interval of the injected clock until stopped', async () => {
    await prepared();
    const sweeper = new MediaSweeper(h.media, { intervalMs: 60_000 });
    sweeper.start();
    await clock.advance(DAY + 60_000);
    await sweeper.stop();
    expect(h.media.store.dueForExpiry(clock.now(), 10)).toEqual([]);
  });
});

describe('POST /media/prepare and GET /media/status/:task_id', () => {
  const post = (body: unknown, user = 'user-1') =>
    app.request('/api/agents/v1/media/prepare', { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-user': user }, body: JSON.stringify(body) });

  it('starts a task at once and reports it completed once done', async () => {
    const res = await post({ urls: [`${server.origin}/photo.jpg`, `${server.origin}/login.jpg`] });
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body).toEqual({ success: true, task_id: expect.stringMatching(/^task_[0-9a-z]{20}$/), message: expect.stringContaining('preparing 2 files') });
    await h.media.settled(body.task_id);
    const status = await json(app.request(`/api/agents/v1/media/status/${body.task_id}`));
    expect(status).toMatchObject({
      success: true,
      status: 'completed',
      progress: { total: 2, completed: 1, failed: 1 },
      files: [{ original_url: `${server.origin}/photo.jpg`, type: 'image', mime_type: 'image/jpeg', size: SAMPLES.jpeg.length }],
      failed: [{ original_url: `${server.origin}/login.jpg`, error: { code: 'html_page' } }],
    });
    expect(status.files[0].expires_at).toBe(new Date(clock.now() + DAY).toISOString());
  });

  it.each([
    [{ urls: [] }, 'urls: give at least one url'],
    [{ urls: Array.from({ length: 11 }, (_, i) => `https://example.com/${i}.jpg`) }, 'urls: at most 10 urls'],
    [{ urls: ['https://example.com/a.jpg', 'ftp://example.com/b.jpg'] }, 'urls.1: unsupported scheme ftp: use http(s), s3:// or gs://'],
    [{ urls: ['not a url'] }, 'urls.0: not a URL: not a url'],
    [{}, 'urls: Invalid input: expected array, received undefined'],
  ])('refuses %j with a 400 naming the problem', async (body, message) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const answer = await json(res);
    expect(answer.error.code).toBe('invalid_request');
    expect(answer.error.message).toBe(message);
  });

  it('answers 404 for an unknown task and 403 for another user’s', async () => {
    addUser(h.db, 'user-2');
    const res = await post({ urls: [`${server.origin}/photo.jpg`] }, 'user-2');
    const { task_id } = await json(res);
    await h.media.settled(task_id);
    const other = await app.request(`/api/agents/v1/media/status/${task_id}`, { headers: { 'x-test-user': 'user-1' } });
    expect(other.status).toBe(403);
    expect((await json(other)).error.code).toBe('forbidden');
    const unknown = await app.request('/api/agents/v1/media/status/task_doesnotexist0000000');
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.code).toBe('not_found');
  });
});

describe('lookup and resolver (what publishing sees)', () => {
  it('describes prepared URLs from their bytes and guesses the rest from the extension', async () => {
    const { file } = await prepared('/clip.mp4');
    const lookup = createMediaLookup(h.media);
    expect(lookup.describe(h.userId, [file.prepared_url, 'https://cdn.example.com/a.PNG', 'https://cdn.example.com/page'])).toEqual([
      { url: file.prepared_url, kind: 'video', mimeType: 'video/mp4', size: video.length, prepared: true },
      { url: 'https://cdn.example.com/a.PNG', kind: 'image', mimeType: null, size: null, prepared: false },
      { url: 'https://cdn.example.com/page', kind: null, mimeType: null, size: null, prepared: false },
    ]);
    await clock.advance(DAY);
    expect(lookup.describe(h.userId, [file.prepared_url])[0]?.prepared).toBe(false);
  });

  it('hands a prepared file from disk and fetches any other URL through the safe path', async () => {
    const { file } = await prepared('/clip.mp4');
    const resolver = createMediaResolver(h.media);
    const [fromDisk, fetched] = await resolver.resolve(h.userId, [file.prepared_url, `${server.origin}/photo.jpg`], new AbortController().signal);
    expect(fromDisk).toMatchObject({ url: file.prepared_url, kind: 'video', mimeType: 'video/mp4', size: video.length, publicUrl: file.prepared_url, sha256: file.sha256 });
    expect(existsSync(fromDisk!.path)).toBe(true);
    expect(fetched).toMatchObject({ kind: 'image', mimeType: 'image/jpeg', size: SAMPLES.jpeg.length, publicUrl: `${server.origin}/photo.jpg` });
    expect(fetched!.path.startsWith(h.media.tmpDir)).toBe(true);
    expect(await h.media.sweepTemp(0)).toBe(1);
    expect(existsSync(fetched!.path)).toBe(false);
  });

  it('turns source problems into the publisher’s typed errors', async () => {
    const resolver = createMediaResolver(h.media);
    const signal = new AbortController().signal;
    await expect(resolver.resolve(h.userId, [`${server.origin}/busy.jpg`], signal)).rejects.toBeInstanceOf(RetryableError);
    await expect(resolver.resolve(h.userId, [`${server.origin}/login.jpg`], signal)).rejects.toBeInstanceOf(PermanentError);
    const strict = new MediaService({ files: new MediaStore(h.db), dir: `${h.dir}/media`, publicBaseUrl: 'http://127.0.0.1:8787', clock, guard: new AddressGuard({ allowPrivate: false }) });
    await expect(createMediaResolver(strict).resolve(h.userId, ['http://169.254.169.254/latest/'], signal)).rejects.toThrow(/private_address/);
    const { file } = await prepared('/photo.jpg');
    await clock.advance(DAY);
    await new MediaSweeper(h.media).sweep();
    await expect(resolver.resolve(h.userId, [file.prepared_url], signal)).rejects.toThrow(/no longer available/);
  });
});

describe('parseRange', () => {
  it('ignores what is not a single byte range', () => {
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=-', 100)).toBeNull();
    expect(parseRange('bytes=5-2', 100)).toBeNull();
    expect(parseRange('bytes=-0', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=-500', 100)).toEqual({ start: 0, end: 99 });
  });
});
