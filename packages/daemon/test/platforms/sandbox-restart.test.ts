import { afterEach, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config';
import { startDaemon } from '../../src/daemon';
import { readSandboxEndpoints } from '../../src/platforms/sandbox';
import { createLogger } from '../../src/util/logger';
import { fakeBytes } from './shared/harness';
import { useTempDirs } from '../support/temp-dirs';

/**
 * Issue 15's "`socialpub down && socialpub up` keeps the sandbox's posts, ids and duplicate
 * memory", for every platform: the daemon itself is stopped and started again on the same
 * data dir, and each simulator is asked, at its own origin, what it had before.
 */

const tempDir = useTempDirs();
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

const quiet = { logger: createLogger({ write: () => undefined }) };
const TOKEN = 'sandbox_at_restartall.secret';
const auth = { authorization: `Bearer ${TOKEN}` };

type Json = Record<string, unknown>;
async function call(url: string, init: RequestInit = {}): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}
const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** One post on every platform (and the things that must survive), at the simulators' own origins. */
async function postEverywhere(o: Record<string, string>, tag: string) {
  const x = await call(`${o['api.x.com']}/2/tweets`, json({ text: `Tweet ${tag}` }));
  const b = 'restart-boundary';
  const video = fakeBytes('mp4', 2048);
  const yt = await call(`${o['www.googleapis.com']}/upload/youtube/v3/videos?uploadType=multipart&part=snippet,status`, {
    method: 'POST',
    headers: { 'content-type': `multipart/related; boundary=${b}` },
    body: Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${JSON.stringify({ snippet: { title: `Video ${tag}` }, status: { privacyStatus: 'private' } })}\r\n--${b}\r\nContent-Type: video/mp4\r\n\r\n`),
      video,
      Buffer.from(`\r\n--${b}--\r\n`),
    ]),
  });
  const ig = (await call(`${o['graph.instagram.com']}/v23.0/me?fields=id`)).body.id as string;
  const container = (await call(`${o['graph.instagram.com']}/v23.0/${ig}/media?image_url=${encodeURIComponent('https://example.com/a.jpg')}&caption=${encodeURIComponent(`Photo ${tag}`)}`, { method: 'POST' })).body.id as string;
  const igMedia = await call(`${o['graph.instagram.com']}/v23.0/${ig}/media_publish?creation_id=${container}`, { method: 'POST' });
  const page = (await call(`${o['graph.facebook.com']}/v23.0/me?fields=id`)).body.id as string;
  const fb = await call(`${o['graph.facebook.com']}/v23.0/${page}/feed?message=${encodeURIComponent(`Page post ${tag}`)}`, { method: 'POST' });
  const th = (await call(`${o['graph.threads.net']}/v1.0/me?fields=id`)).body.id as string;
  const thContainer = (await call(`${o['graph.threads.net']}/v1.0/${th}/threads?media_type=TEXT&text=${encodeURIComponent(`Thread ${tag}`)}`, { method: 'POST' })).body.id as string;
  const thread = await call(`${o['graph.threads.net']}/v1.0/${th}/threads_publish?creation_id=${thContainer}`, { method: 'POST' });
  const tt = await call(`${o['open.tiktokapis.com']}/v2/post/publish/video/init/`, json({ post_info: { title: `Clip ${tag}`, privacy_level: 'SELF_ONLY' }, source_info: { source: 'FILE_UPLOAD', video_size: video.length, chunk_size: video.length, total_chunk_count: 1 } }));
  const upload = (tt.body.data as { upload_url: string }).upload_url;
  expect((await fetch(upload, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': `bytes 0-${video.length - 1}/${video.length}` }, body: video })).status).toBe(201);
  return {
    x: (x.body.data as { id: string }).id,
    youtube: yt.body.id as string,
    instagram: igMedia.body.id as string,
    facebook: fb.body.id as string,
    threads: thread.body.id as string,
    tiktok: (tt.body.data as { publish_id: string }).publish_id,
    page,
  };
}

describe('socialpub down && up keeps every simulator where it was', () => {
  it('keeps posts, ids and duplicate memory for X, YouTube, Instagram, Facebook, Threads and TikTok', async () => {
    const dir = tempDir('sp-sandbox-restart-all-');
    const first = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    const o = readSandboxEndpoints(first.store.settings);
    const before = await postEverywhere(o, 'before');
    await first.close();

    const again = await startDaemon(resolveConfig({ dataDir: dir, port: 0 }, {}), quiet);
    closers.push(() => again.close());
    expect(readSandboxEndpoints(again.store.settings)).toEqual(o);

    // The posts are still there, read back at the same origins.
    expect((await call(`${o['api.x.com']}/2/tweets/${before.x}`)).body.data).toMatchObject({ id: before.x, text: 'Tweet before' });
    expect(((await call(`${o['www.googleapis.com']}/youtube/v3/videos?part=snippet&id=${before.youtube}`)).body.items as Json[])[0]).toMatchObject({ id: before.youtube, snippet: { title: 'Video before' } });
    expect((await call(`${o['graph.instagram.com']}/v23.0/${before.instagram}?fields=caption`)).body).toEqual({ id: before.instagram, caption: 'Photo before' });
    expect((await call(`${o['graph.facebook.com']}/v23.0/${before.facebook}?fields=message`)).body).toEqual({ id: before.facebook, message: 'Page post before' });
    expect((await call(`${o['graph.threads.net']}/v1.0/${before.threads}?fields=text`)).body).toEqual({ id: before.threads, text: 'Thread before' });
    expect(((await call(`${o['open.tiktokapis.com']}/v2/post/publish/status/fetch/`, json({ publish_id: before.tiktok }))).body.data as Json).status).toBe('PUBLISH_COMPLETE');

    // Duplicates are still refused.
    expect((await call(`${o['api.x.com']}/2/tweets`, json({ text: 'Tweet before' }))).status).toBe(403);
    expect(((await call(`${o['graph.facebook.com']}/v23.0/${before.page}/feed?message=${encodeURIComponent('Page post before')}`, { method: 'POST' })).body.error as Json).code).toBe(506);

    // New posts get new ids.
    const after = await postEverywhere(o, 'after');
    for (const p of ['x', 'youtube', 'instagram', 'facebook', 'threads', 'tiktok'] as const) expect(after[p]).not.toBe(before[p]);
    expect(BigInt(after.x)).toBeGreaterThan(BigInt(before.x));
  }, 60_000);
});
