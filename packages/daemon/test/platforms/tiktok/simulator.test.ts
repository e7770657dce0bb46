import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTiktokAdapter } from '../../../src/platforms/tiktok/adapter';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../../src/platforms/tiktok/sim/simulator';
import { RetryableError } from '../../../src/platforms/errors';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

let clock: RecordingClock;
let sim: TiktokSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new RecordingClock();
  sim = createTiktokSimulator({ clock, chunkRules: { min: 64 * 1024, max: 256 * 1024, finalMax: 512 * 1024, maxChunks: 1000 } });
  server = await serveSimulators([{ host: TIKTOK_HOST, app: sim.app }]);
});
afterEach(() => server.close());

const post = (path: string, body: unknown) =>
  fetch(`${server.baseUrl(TIKTOK_HOST)}${path}`, { method: 'POST', headers: { authorization: 'Bearer sandbox-t', 'content-type': 'application/json; charset=UTF-8' }, body: JSON.stringify(body) });
const postInfo = { title: 't', privacy_level: 'SELF_ONLY', disable_duet: false, disable_stitch: false, disable_comment: false, brand_content_toggle: false, brand_organic_toggle: false };

describe('the TikTok simulator', () => {
  it('wraps every answer, refuses privacy levels the creator lacks and chunk plans that break the arithmetic', async () => {
    const wrong = await post('/v2/post/publish/video/init/', { post_info: { ...postInfo, privacy_level: 'PUBLIC_TO_EVERYONE' }, source_info: { source: 'FILE_UPLOAD', video_size: 1000, chunk_size: 1000, total_chunk_count: 1 } });
    expect(wrong.status).toBe(403);
    expect(await wrong.json()).toMatchObject({ data: {}, error: { code: 'privacy_level_option_mismatch', log_id: expect.any(String) } });
    const bad = await post('/v2/post/publish/video/init/', { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 700_000, chunk_size: 100_000, total_chunk_count: 6 } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'invalid_param', message: 'total_chunk_count must be floor(video_size / chunk_size) = 7' } });
    const ok = await post('/v2/post/publish/video/init/', { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 700_000, chunk_size: 100_000, total_chunk_count: 7 } });
    expect(await ok.json()).toMatchObject({ data: { publish_id: expect.stringMatching(/^v_pub_file~v2-1\./), upload_url: expect.stringContaining('/upload/video/?upload_id=') }, error: { code: 'ok' } });
  });

  it('refuses chunks out of order with 416 and the progress, and wrong sizes with 400', async () => {
    const init = (await (await post('/v2/post/publish/video/init/', { post_info: postInfo, source_info: { source: 'FILE_UPLOAD', video_size: 200_000, chunk_size: 100_000, total_chunk_count: 2 } })).json()) as { data: { upload_url: string } };
    const put = (range: string, n: number) => fetch(init.data.upload_url, { method: 'PUT', headers: { 'content-type': 'video/mp4', 'content-range': range }, body: new Uint8Array(n) });
    const early = await put('bytes 100000-199999/200000', 100_000);
    expect([early.status, early.headers.get('content-range')]).toEqual([416, 'bytes */200000']);
    expect((await put('bytes 0-49999/200000', 50_000)).status).toBe(400);
    const first = await put('bytes 0-99999/200000', 100_000);
    expect([first.status, first.headers.get('content-range')]).toEqual([206, 'bytes 0-99999/200000']);
    expect((await put('bytes 100000-199999/200000', 100_000)).status).toBe(201);
  });

  it('expires upload URLs after an hour, and the adapter starts again with a new init', async () => {
    sim.log.inject({ method: 'PUT', path: '/upload/video/', kind: 'latency', delayMs: 3_601_000 });
    const adapter = createTiktokAdapter();
    const video = mediaFile('late.mp4', fakeBytes('mp4', 3000), 'video', 'video/mp4');
    const ctx = makeContext({ platform: 'tiktok', type: 'video', caption: 'late', media: [video], secrets: { access_token: 'sandbox-t' }, clock, server });
    const err = await driveClock(clock, adapter.publish(ctx), 600_000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(/upload URL expired/);
    await driveClock(clock, adapter.publish(ctx), 5_000);
    expect(sim.log.to('POST', '/v2/post/publish/video/init/')).toHaveLength(2);
    expect(sim.log.posts).toHaveLength(1);
  });
});
