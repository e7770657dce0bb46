import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTiktokAdapter } from '../../../src/platforms/tiktok/adapter';
import { validateTiktok } from '../../../src/platforms/tiktok/validate';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../../src/platforms/tiktok/sim/simulator';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { PermanentError } from '../../../src/platforms/errors';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

let clock: RecordingClock;
let sim: TiktokSimulator;
let server: SimServer;
beforeEach(async () => {
  clock = new RecordingClock();
  forgetRefreshes();
  sim = createTiktokSimulator({ clock });
  sim.settings.verifiedUrlPrefixes.push('https://media.example.com/');
  server = await serveSimulators([{ host: TIKTOK_HOST, app: sim.app }]);
});
afterEach(() => server.close());

const adapter = createTiktokAdapter();
const photo = (name: string, publicUrl: string | null = `https://media.example.com/${name}`) => mediaFile(name, fakeBytes('jpeg', 2_000), 'image', 'image/jpeg', publicUrl);
const ctxFor = (options: Record<string, unknown>, media = [photo('a.jpg'), photo('b.jpg'), photo('c.jpg')]) =>
  makeContext({ platform: 'tiktok', type: 'photo', caption: 'Three pictures #fyp', media, options, secrets: { access_token: 'sandbox-tt' }, clock, server, publicBaseUrl: 'https://media.example.com' });

describe('TikTok photo posts (content/init, PULL_FROM_URL)', () => {
  it('sends the photo post exactly as TikTok documents it and publishes it', async () => {
    const out = await driveClock(clock, adapter.publish(ctxFor({ photo_cover_index: 2, auto_add_music: true, disable_comment: true, is_aigc: true })));
    const [init] = sim.log.to('POST', '/v2/post/publish/content/init/');
    expect(init!.body).toEqual({
      media_type: 'PHOTO',
      post_mode: 'DIRECT_POST',
      post_info: { description: 'Three pictures #fyp', privacy_level: 'SELF_ONLY', disable_comment: true, auto_add_music: true, brand_content_toggle: false, brand_organic_toggle: false },
      source_info: { source: 'PULL_FROM_URL', photo_images: ['https://media.example.com/a.jpg', 'https://media.example.com/b.jpg', 'https://media.example.com/c.jpg'], photo_cover_index: 2 },
      is_aigc: true,
    });
    expect((init!.responseBody as { data: { publish_id: string } }).data.publish_id).toMatch(/^p_pub_url~v2\./);
    const [post] = sim.log.posts;
    expect(post!.kind).toBe('photo');
    expect(post!.body.post_info).toMatchObject({ photo_cover_index: 2, is_aigc: true, privacy_level: 'SELF_ONLY' });
    expect(out.postId).toBe(post!.postId);
    expect(sim.log.to('POST', '/v2/post/publish/video/init/')).toEqual([]);
  });

  it('fails permanently without public https URLs, and on an unverified domain, without posting', async () => {
    const local = ctxFor({}, [photo('a.jpg', null)]);
    await expect(adapter.publish(local)).rejects.toThrow(/TikTok pulls photos from public https URLs; image 1 has none/);
    const elsewhere = ctxFor({}, [photo('x.jpg', 'https://other.example.com/x.jpg')]);
    const err = await adapter.publish(elsewhere).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('url_ownership_unverified');
    expect(sim.log.posts).toEqual([]);
  });

  it('the simulator refuses what TikTok refuses for photos', async () => {
    const base = server.baseUrl(TIKTOK_HOST);
    const send = async (body: unknown) => {
      await clock.advance(60_000); // content/init allows 6 a minute per token
      const res = await fetch(`${base}/v2/post/publish/content/init/`, { method: 'POST', headers: { authorization: 'Bearer sandbox-tt', 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return ((await res.json()) as { error: { code: string; message: string } }).error;
    };
    const good = { media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: { privacy_level: 'SELF_ONLY' }, source_info: { source: 'PULL_FROM_URL', photo_images: ['https://media.example.com/a.jpg'], photo_cover_index: 0 } };
    expect((await send(good)).code).toBe('ok');
    expect(await send({ ...good, source_info: { ...good.source_info, photo_cover_index: 1 } })).toMatchObject({ code: 'invalid_param', message: expect.stringMatching(/photo_cover_index/) });
    expect(await send({ ...good, source_info: { ...good.source_info, source: 'FILE_UPLOAD' } })).toMatchObject({ code: 'invalid_param' });
    expect(await send({ ...good, post_info: { ...good.post_info, title: 'x'.repeat(91) } })).toMatchObject({ code: 'invalid_param', message: expect.stringMatching(/90/) });
    expect(await send({ ...good, post_info: { ...good.post_info, disable_duet: true } })).toMatchObject({ code: 'invalid_param', message: expect.stringMatching(/disable_duet/) });
    expect(await send({ ...good, post_info: { privacy_level: 'PUBLIC_TO_EVERYONE' } })).toMatchObject({ code: 'privacy_level_option_mismatch' });
    expect(await send({ ...good, source_info: { ...good.source_info, photo_images: Array.from({ length: 36 }, (_, i) => `https://media.example.com/${i}.jpg`) } })).toMatchObject({ code: 'invalid_param' });
  });

  it('validates photo posts: image formats, the cover index, video-only options, and a public URL for prepared files', () => {
    const img = (i: number, extra: Record<string, unknown> = {}) => ({ url: `https://cdn.example.com/${i}.jpg`, kind: 'image' as const, mimeType: 'image/jpeg', size: 1000, prepared: false, ...extra });
    const check = (media: ReturnType<typeof img>[], options: Record<string, unknown> = {}, publicBaseUrl: string | null = null) =>
      validateTiktok({ platform: 'tiktok', type: 'photo', caption: 'c', media, publicBaseUrl, options }).map((d) => [d.path, d.message]);
    expect(check([img(0), img(1)], { photo_cover_index: 1 })).toEqual([]);
    expect(check([img(0), img(1)], { photo_cover_index: 2 })).toEqual([['platform_options.tiktok.photo_cover_index', 'photo_cover_index must name one of the 2 images (0 to 1)']]);
    expect(check([img(0, { mimeType: 'image/png' })])).toEqual([['media_urls.0', 'TikTok photo posts take JPEG or WebP images, not image/png']]);
    expect(check([img(0, { size: 21 * 1024 * 1024 })])).toEqual([['media_urls.0', 'TikTok photo posts take images up to 20 MB']]);
    expect(check([img(0)], { disable_duet: true, video_cover_timestamp_ms: 5 }).map(([p]) => p)).toEqual(['platform_options.tiktok.disable_duet', 'platform_options.tiktok.video_cover_timestamp_ms']);
    expect(check([img(0, { prepared: true })])[0]![1]).toMatch(/no public base URL/);
    expect(check([img(0, { prepared: true })], {}, 'https://media.example.com')).toEqual([]);
    const video = validateTiktok({ platform: 'tiktok', type: 'video', caption: 'c', media: [{ url: 'v.mp4', kind: 'video', mimeType: 'video/mp4', size: 1, prepared: false }], publicBaseUrl: null, options: { photo_cover_index: 0 } });
    expect(video.map((d) => d.path)).toEqual(['platform_options.tiktok.photo_cover_index']);
  });
});
