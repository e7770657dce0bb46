import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { openDatabase, type DB } from '../../../src/store/database';
import { simState } from '../../../src/platforms/shared/sim/sim-state';
import { createYoutubeSimulator, YOUTUBE_HOST, type YoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { ManualClock } from '../../../src/util/clock';
import { serveSimulators, type SimServer } from '../shared/harness';
import { sandboxStore } from '../../support/sandbox-records';

/** Issue 15: the upload forms Google documents, any listed part, reads/updates/deletes, Google's errors, a channel per connection, state across a restart. */

let clock: ManualClock;
let db: DB;
let sim: YoutubeSimulator;
let server: SimServer;

async function start(): Promise<void> {
  sim = createYoutubeSimulator({ clock, state: simState(sandboxStore(db), 'youtube') });
  server = await serveSimulators(sim.apps);
}
beforeEach(async () => {
  clock = new ManualClock();
  db = openDatabase(':memory:');
  await start();
});
afterEach(async () => {
  await server.close();
  db.close();
});

const A = 'sandbox_at_aaaa.s1';
const B = 'sandbox_at_bbbb.s2';
const yt = (path: string, init: RequestInit & { token?: string } = {}) =>
  fetch(`${server.baseUrl(YOUTUBE_HOST)}${path}`, { ...init, headers: { authorization: `Bearer ${init.token ?? A}`, ...(init.headers as Record<string, string>) } });
const body = async <T = Record<string, unknown>>(r: Response) => (await r.json()) as T;
const video = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));

function related(resource: unknown, media: Buffer): { body: Buffer; type: string } {
  const b = 'google-test-boundary';
  return {
    body: Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify(resource)}\r\n--${b}\r\nContent-Type: video/mp4\r\n\r\n`),
      media,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]),
    type: `multipart/related; boundary=${b}`,
  };
}

async function insertMultipart(title: string, token = A, part = 'snippet,status'): Promise<Response> {
  const m = related({ snippet: { title, description: 'd' }, status: { privacyStatus: 'private' } }, video);
  return yt(`/upload/youtube/v3/videos?uploadType=multipart&part=${part}`, { method: 'POST', body: m.body, headers: { 'content-type': m.type }, token });
}

describe('YouTube simulator: documented upload forms and parts', () => {
  it('takes uploadType=multipart (metadata and video in one multipart/related body)', async () => {
    const res = await insertMultipart('multipart upload');
    expect(res.status).toBe(200);
    const v = await body<{ id: string; snippet: { title: string }; status: { privacyStatus: string } }>(res);
    expect(v).toMatchObject({ kind: 'youtube#video', snippet: { title: 'multipart upload' }, status: { privacyStatus: 'private', uploadStatus: 'uploaded' } });
    expect(sim.log.posts[0]!.body).toMatchObject({ bytes: video.length, sha256: createHash('sha256').update(video).digest('hex') });
  });

  it('takes uploadType=media (the video alone) and any listed part, answering only the parts asked for', async () => {
    const res = await yt('/upload/youtube/v3/videos?uploadType=media&part=snippet', { method: 'POST', body: video, headers: { 'content-type': 'video/mp4' } });
    expect(res.status).toBe(200);
    const v = await body(res);
    expect(Object.keys(v).sort()).toEqual(['etag', 'id', 'kind', 'snippet']);
    const status = await insertMultipart('only status', A, 'status');
    expect(Object.keys(await body(status)).sort()).toEqual(['etag', 'id', 'kind', 'status']);
    const bad = await insertMultipart('bad part', A, 'snippet,nonsense');
    expect(bad.status).toBe(400);
    expect(await body(bad)).toMatchObject({ error: { code: 400, errors: [{ reason: 'unknownPart' }] } });
  });

  it("answers unknown paths with Google's error shape", async () => {
    const res = await yt('/youtube/v3/nonsense');
    expect(res.status).toBe(404);
    expect(await body(res)).toMatchObject({ error: { code: 404, errors: [{ domain: 'global', reason: 'notFound' }] } });
    expect((await yt('/youtube/v3/channels', { method: 'POST' })).status).toBe(405);
  });
});

describe('YouTube simulator: reading back, updating and deleting', () => {
  it('videos.list, videos.update and videos.delete', async () => {
    const { id } = await body<{ id: string }>(await insertMultipart('first title'));
    const list = await body<{ kind: string; etag: string; pageInfo: { totalResults: number }; items: Array<{ id: string; snippet: { title: string } }> }>(await yt(`/youtube/v3/videos?part=snippet&id=${id}`));
    expect(list).toMatchObject({ kind: 'youtube#videoListResponse', pageInfo: { totalResults: 1 }, items: [{ id, snippet: { title: 'first title' } }] });
    expect(typeof list.etag).toBe('string');
    // Another channel does not see a private video.
    expect((await body<{ items: unknown[] }>(await yt(`/youtube/v3/videos?part=snippet&id=${id}`, { token: B }))).items).toEqual([]);

    const noCategory = await yt('/youtube/v3/videos?part=snippet', { method: 'PUT', body: JSON.stringify({ id, snippet: { title: 'new' } }), headers: { 'content-type': 'application/json' } });
    expect(noCategory.status).toBe(400);
    const updated = await yt('/youtube/v3/videos?part=snippet,status', { method: 'PUT', body: JSON.stringify({ id, snippet: { title: 'second title', categoryId: '22' }, status: { privacyStatus: 'unlisted' } }), headers: { 'content-type': 'application/json' } });
    expect(await body(updated)).toMatchObject({ id, snippet: { title: 'second title' }, status: { privacyStatus: 'unlisted' } });
    expect((await body<{ items: Array<{ snippet: { title: string } }> }>(await yt(`/youtube/v3/videos?part=snippet&id=${id}`))).items[0]!.snippet.title).toBe('second title');

    expect((await yt(`/youtube/v3/videos?id=${id}`, { method: 'DELETE', token: B })).status).toBe(403);
    expect((await yt(`/youtube/v3/videos?id=${id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await body<{ items: unknown[] }>(await yt(`/youtube/v3/videos?part=id&id=${id}`))).items).toEqual([]);
    expect((await yt(`/youtube/v3/videos?id=${id}`, { method: 'DELETE' })).status).toBe(404);
  });

  it('channels.list honours part and answers etag and pageInfo; each sandbox connection is its own channel', async () => {
    const a = await body<{ etag: string; pageInfo: { totalResults: number; resultsPerPage: number }; items: Array<Record<string, unknown>> }>(await yt('/youtube/v3/channels?part=id,statistics&mine=true'));
    expect(a.pageInfo).toEqual({ totalResults: 1, resultsPerPage: 5 });
    expect(typeof a.etag).toBe('string');
    expect(Object.keys(a.items[0]!).sort()).toEqual(['etag', 'id', 'kind', 'statistics']);
    const b = await body<{ items: Array<{ id: string }> }>(await yt('/youtube/v3/channels?part=snippet&mine=true', { token: B }));
    expect(b.items[0]!.id).not.toBe(a.items[0]!.id);
    expect((await yt('/youtube/v3/channels?mine=true')).status).toBe(400);
  });
});

describe('YouTube simulator: quota per channel and state across a restart', () => {
  it("one channel's quota does not limit another, and videos, quota and resumable sessions survive a restart", async () => {
    sim.settings.insertsPerDay = 2;
    expect((await insertMultipart('one')).status).toBe(200);
    const { id } = await body<{ id: string }>(await insertMultipart('two'));
    expect((await insertMultipart('three')).status).toBe(403);
    expect((await insertMultipart('three', B)).status).toBe(200);
    const open = await yt('/upload/youtube/v3/videos?uploadType=resumable&part=snippet,status', {
      method: 'POST',
      body: JSON.stringify({ snippet: { title: 'resumed' } }),
      headers: { 'content-type': 'application/json', 'x-upload-content-length': String(video.length), 'x-upload-content-type': 'video/mp4' },
      token: B,
    });
    const location = open.headers.get('location')!;
    await server.close();

    await start();
    sim.settings.insertsPerDay = 2;
    expect((await insertMultipart('still over')).status).toBe(403);
    expect((await body<{ items: Array<{ id: string }> }>(await yt(`/youtube/v3/videos?part=id&id=${id}`))).items.map((v) => v.id)).toEqual([id]);
    const put = await fetch(location.replace(/^http:\/\/127\.0\.0\.1:\d+/, server.url), { method: 'PUT', body: video, headers: { 'content-range': `bytes 0-${video.length - 1}/${video.length}` } });
    expect(put.status).toBe(201);
    expect(await body(put)).toMatchObject({ snippet: { title: 'resumed' } });
  });
});
