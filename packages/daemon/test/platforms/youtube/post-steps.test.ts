import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createYoutubeAdapter } from '../../../src/platforms/youtube/adapter';
import { safeThumbnailFetcher } from '../../../src/platforms/youtube/fetch-thumbnail';
import { createYoutubeSimulator, YOUTUBE_HOST, type YoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { sandboxPlaylistId } from '../../../src/platforms/youtube/sim/thumbnails-playlists';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

const PNG = fakeBytes('png', 30_000);
const CHANNEL = 'UCsandboxChannel0000000a';
const PLAYLIST = sandboxPlaylistId(CHANNEL);

let clock: RecordingClock;
let sim: YoutubeSimulator;
let server: SimServer;
/** A web server with images (on 127.0.0.1: only a fetcher allowed private addresses reaches it). */
let images: SimServer;

beforeEach(async () => {
  clock = new RecordingClock();
  forgetRefreshes();
  sim = createYoutubeSimulator({ clock });
  server = await serveSimulators(sim.apps);
  const web = new Hono();
  web.get('/thumb.png', (c) => c.body(new Uint8Array(PNG), 200, { 'content-type': 'image/png' }));
  web.get('/page.png', (c) => c.html('<!doctype html><html><body>login</body></html>'));
  web.get('/huge.jpg', (c) => c.body(new Uint8Array(fakeBytes('jpeg', 2_000)), 200, { 'content-type': 'image/jpeg' }));
  images = await serveSimulators([{ host: 'img.example', app: web }]);
});
afterEach(async () => {
  await server.close();
  await images.close();
});

const localFetch = safeThumbnailFetcher({ allowPrivate: true });
const adapter = createYoutubeAdapter({ chunkBytes: 256 * 1024, fetchThumbnail: localFetch });

const ctxFor = (options: Record<string, unknown>, checkpoint?: Record<string, unknown>) =>
  makeContext({
    platform: 'youtube',
    type: 'video',
    caption: 'Launch day',
    media: [mediaFile('v.mp4', fakeBytes('mp4', 300_000), 'video', 'video/mp4')],
    secrets: { access_token: 'sandbox-yt' },
    options,
    clock,
    server,
    ...(checkpoint ? { checkpoint } : {}),
  });

const calls = () => sim.log.requests.filter((r) => r.path !== '/thumb.png').map((r) => `${r.method} ${r.path}`);
const uploads = () => sim.log.requests.filter((r) => r.method === 'POST' && r.path === '/upload/youtube/v3/videos').length;

describe('YouTube thumbnail_url and playlist_id after the upload', () => {
  it('sets the thumbnail with thumbnails.set and adds the video to the playlist, as YouTube documents the requests', async () => {
    const ctx = ctxFor({ thumbnail_url: `${images.baseUrl('img.example')}/thumb.png`, playlist_id: PLAYLIST, title: 'Launch', tags: ['launch'], privacy_status: 'unlisted' });
    const out = await adapter.publish(ctx);

    expect(calls().slice(-2)).toEqual(['POST /upload/youtube/v3/thumbnails/set', 'POST /youtube/v3/playlistItems']);
    const [thumb, item] = sim.log.requests.slice(-2);
    expect(thumb!.query).toEqual({ videoId: out.postId, uploadType: 'media' });
    expect(thumb!.contentType).toBe('image/png');
    expect(thumb!.body).toBe(`<${PNG.length} bytes>`);
    expect(item!.query).toEqual({ part: 'snippet' });
    expect(item!.body).toEqual({ snippet: { playlistId: PLAYLIST, resourceId: { kind: 'youtube#video', videoId: out.postId } } });

    // The simulator stores title, tags, privacy, the thumbnail (its bytes' digest) and the playlist item.
    const stored = sim.video(out.postId)!.video as { snippet: { title: string; tags: string[] }; status: { privacyStatus: string }; customThumbnail: { sha256: string; type: string } };
    expect([stored.snippet.title, stored.snippet.tags, stored.status.privacyStatus]).toEqual(['Launch', ['launch'], 'unlisted']);
    expect(stored.customThumbnail).toEqual({ type: 'image/png', bytes: PNG.length, sha256: createHash('sha256').update(PNG).digest('hex') });
    const itemId = (item!.responseBody as { id: string }).id;
    expect(sim.playlist(PLAYLIST)!.items).toEqual([{ itemId, videoId: out.postId }]);
    expect(sim.log.posts.map((p) => p.kind)).toEqual(['video', 'thumbnail', 'playlist_item']);
    expect(ctx.checkpoint.data.followUps).toEqual({ thumbnail: { status: 'done' }, playlist: { status: 'done', id: itemId } });
    // The video id is checkpointed before any post step.
    const keys = ctx.checkpointHistory.map((p) => Object.keys(p).sort().join(','));
    expect(keys.indexOf('postUrl,sessionUri,videoId')).toBeLessThan(keys.indexOf('followUps'));
  });

  it('a thumbnail that cannot be fetched or set and an unknown playlist leave the video published, uploaded once, with the reasons', async () => {
    const guarded = createYoutubeAdapter({ chunkBytes: 256 * 1024 }); // the default: public addresses only
    const ctx = ctxFor({ thumbnail_url: `${images.baseUrl('img.example')}/thumb.png`, playlist_id: 'PLnobodyhasthisone' });
    const out = await guarded.publish(ctx);
    expect(out.postId).toMatch(/^[A-Za-z0-9_-]{11}$/);
    expect(uploads()).toBe(1);
    expect(calls()).not.toContain('POST /upload/youtube/v3/thumbnails/set');
    const steps = ctx.checkpoint.data.followUps as Record<string, { status: string; error: string }>;
    expect(steps.thumbnail).toEqual({ status: 'failed', error: expect.stringMatching(/could not fetch .*thumb\.png: refused to fetch from 127\.0\.0\.1/) });
    expect(steps.playlist).toEqual({ status: 'failed', error: expect.stringMatching(/playlistNotFound|cannot be found/) });

    const html = ctxFor({ thumbnail_url: `${images.baseUrl('img.example')}/page.png` });
    await adapter.publish(html);
    expect((html.checkpoint.data.followUps as Record<string, { error: string }>).thumbnail!.error).toMatch(/must be a JPEG or PNG image \(this one is an HTML page\)/);

    const small = createYoutubeAdapter({ chunkBytes: 256 * 1024, fetchThumbnail: safeThumbnailFetcher({ allowPrivate: true, maxBytes: 1_000 }) });
    const big = ctxFor({ thumbnail_url: `${images.baseUrl('img.example')}/huge.jpg` });
    await small.publish(big);
    expect((big.checkpoint.data.followUps as Record<string, { error: string }>).thumbnail!.error).toMatch(/YouTube takes at most/);
    expect(uploads()).toBe(3);
  });

  it('after a crash past the upload, resumes the post steps without uploading again or adding the video twice', async () => {
    const first = ctxFor({ playlist_id: PLAYLIST });
    const out = await adapter.publish(first);
    expect(sim.playlist(PLAYLIST)!.items).toHaveLength(1);
    // As if the daemon died after playlistItems.insert was sent and before its answer was stored.
    const after = ctxFor({ playlist_id: PLAYLIST, thumbnail_url: `${images.baseUrl('img.example')}/thumb.png` }, { videoId: out.postId, postUrl: out.postUrl, followUps: { playlist: { status: 'requested' } } });
    const again = await adapter.publish(after);
    expect(again).toEqual(out);
    expect(uploads()).toBe(1);
    expect(sim.playlist(PLAYLIST)!.items).toHaveLength(1);
    expect(after.checkpoint.data.followUps).toEqual({ thumbnail: { status: 'done' }, playlist: { status: 'done', id: sim.playlist(PLAYLIST)!.items[0]!.itemId } });
    // Reconcile of a finished target asks nothing more.
    const before = sim.log.requests.length;
    expect(await adapter.reconcile(after)).toEqual({ state: 'published', outcome: out });
    expect(sim.log.requests.length).toBe(before);
  });

  it('the simulator refuses thumbnails of other channels, non-images, and playlist items of unknown videos', async () => {
    const base = server.baseUrl(YOUTUBE_HOST);
    const auth = { authorization: 'Bearer sandbox-yt' };
    const out = await adapter.publish(ctxFor({}));
    const bad = await fetch(`${base}/upload/youtube/v3/thumbnails/set?videoId=${out.postId}&uploadType=media`, { method: 'POST', headers: { ...auth, 'content-type': 'image/png' }, body: 'not an image' });
    expect([bad.status, ((await bad.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason]).toEqual([400, 'invalidImage']);
    const other = await fetch(`${base}/upload/youtube/v3/thumbnails/set?videoId=${out.postId}&uploadType=media`, { method: 'POST', headers: { authorization: 'Bearer sandbox_at_other.x', 'content-type': 'image/png' }, body: new Uint8Array(PNG) });
    expect(other.status).toBe(403);
    const missing = await fetch(`${base}/youtube/v3/playlistItems?part=snippet`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ snippet: { playlistId: PLAYLIST, resourceId: { kind: 'youtube#video', videoId: 'AAAAAAAAAAA' } } }) });
    expect([missing.status, ((await missing.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason]).toEqual([404, 'videoNotFound']);
    const list = await fetch(`${base}/youtube/v3/playlists?part=snippet&mine=true`, { headers: auth });
    expect(((await list.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([PLAYLIST]);
  });
});
