import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTiktokAdapter } from '../../src/platforms/tiktok/adapter';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../src/platforms/tiktok/sim/simulator';
import { forgetRefreshes } from '../../src/platforms/shared/ensure-access-token';
import type { MediaLookup } from '../../src/ports/media';
import { ManualClock } from '../../src/util/clock';
import { serveSimulators, type SimServer } from '../platforms/shared/harness';
import { API, errorOf, harness, type Harness } from './harness';

const PUBLISH = `${API}/content/publish`;
const VALIDATE = `${API}/content/validate`;
const SCHEDULED = `${API}/content/scheduled`;
const VIDEO = 'https://cdn.example.com/clip.mp4';

let sim: TiktokSimulator;
let server: SimServer;
let h: Harness;
/** The video's duration as the media lookup reports it (null: unknown). */
let duration: number | null;

const media: MediaLookup = {
  describe: (_user, urls) => urls.map((url) => ({ url, kind: 'video', mimeType: 'video/mp4', size: 1_000_000, prepared: false, durationSec: duration, width: 1080, height: 1920 })),
};

beforeEach(async () => {
  duration = null;
  forgetRefreshes();
  sim = createTiktokSimulator({ clock: new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0)) });
  server = await serveSimulators([{ host: TIKTOK_HOST, app: sim.app }]);
  h = harness({ deps: { adapters: new Map([['tiktok', createTiktokAdapter()]]), mediaLookup: media, sandboxBaseUrl: (_p, host) => server.baseUrl(host) } });
  h.store.connections.save(h.user.id, 'tiktok', { mode: 'sandbox', accountId: sim.creator.openId, pageId: null, pageName: null, secrets: { access_token: 'sandbox-tiktok-token' } });
});
afterEach(() => server.close());

const video = (tiktok: Record<string, unknown>) => ({ caption: 'clip', platforms: ['tiktok'], media_urls: [VIDEO], scheduled_for: '2026-12-25T10:00:00Z', platform_options: { tiktok } });
const creatorCalls = () => sim.log.requests.filter((r) => r.path === '/v2/post/publish/creator_info/query/').length;

const jobCount = () => h.store.jobs.list(h.user.id, { status: 'all', limit: 100, after: null }).jobs.length;

async function refusedEverywhere(tiktok: Record<string, unknown>, path: string, message: RegExp) {
  const before = jobCount();
  const res = await h.call('POST', PUBLISH, { body: video(tiktok) });
  expect(res.status).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe('invalid_request');
  expect(e.details).toContainEqual(expect.objectContaining({ path, message: expect.stringMatching(message) }));
  const v = (await (await h.call('POST', VALIDATE, { body: video(tiktok) })).json()) as { valid: boolean; errors: { path: string; message: string }[] };
  expect(v.valid).toBe(false);
  expect(v.errors).toContainEqual(expect.objectContaining({ path, message: expect.stringMatching(message) }));
  expect(jobCount()).toBe(before);
  // PATCH of an accepted job to the same options.
  const ok = await h.call('POST', PUBLISH, { body: video({}) });
  const { job_id } = (await ok.json()) as { job_id: string };
  const patch = await h.call('PATCH', `${SCHEDULED}?job_id=${job_id}`, { body: { platform_options: { tiktok } } });
  expect(patch.status).toBe(400);
  expect((await errorOf(patch)).details).toContainEqual(expect.objectContaining({ path }));
  const stored = await h.call('GET', `${SCHEDULED}?job_id=${job_id}`);
  expect(((await stored.json()) as { post: { platform_options: unknown } }).post.platform_options).toEqual({ tiktok: {} });
}

describe("TikTok options against the creator's current creator info, at validate, publish and PATCH", () => {
  it('refuses a privacy level the creator does not have (a private account has no PUBLIC_TO_EVERYONE)', async () => {
    expect(sim.creator.privateAccount).toBe(true);
    await refusedEverywhere({ privacy_level: 'PUBLIC_TO_EVERYONE' }, 'platform_options.tiktok.privacy_level', /PUBLIC_TO_EVERYONE is not one of this creator's privacy levels now \(FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY\)/);
    expect(creatorCalls()).toBeGreaterThanOrEqual(3);
  });

  it('accepts a level the creator has, and follows the account when it changes', async () => {
    const res = await h.call('POST', PUBLISH, { body: video({ privacy_level: 'FOLLOWER_OF_CREATOR' }) });
    expect(res.status).toBe(200);
    sim.creator.privateAccount = false;
    const v = (await (await h.call('POST', VALIDATE, { body: video({ privacy_level: 'FOLLOWER_OF_CREATOR' }) })).json()) as { valid: boolean; errors: { path: string }[] };
    expect([v.valid, v.errors.map((e) => e.path)]).toEqual([false, ['platform_options.tiktok.privacy_level']]);
    expect((await h.call('POST', PUBLISH, { body: video({ privacy_level: 'PUBLIC_TO_EVERYONE' }) })).status).toBe(200);
  });

  it('refuses comments, duets or stitches explicitly allowed that the creator turned off', async () => {
    sim.creator.commentDisabled = true;
    await refusedEverywhere({ disable_comment: false }, 'platform_options.tiktok.disable_comment', /turned comments off/);
    sim.creator.duetDisabled = true;
    await refusedEverywhere({ disable_duet: false }, 'platform_options.tiktok.disable_duet', /Duets are off/);
    await refusedEverywhere({ disable_stitch: false }, 'platform_options.tiktok.disable_stitch', /Stitches are off/);
    // Asking to turn them off is always fine.
    expect((await h.call('POST', PUBLISH, { body: video({ disable_comment: true, disable_duet: true, disable_stitch: true }) })).status).toBe(200);
  });

  it("refuses a video longer than the creator's max_video_post_duration_sec, naming the media", async () => {
    sim.creator.maxVideoPostDurationSec = 180;
    duration = 181;
    const res = await h.call('POST', PUBLISH, { body: video({}) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).details).toEqual([expect.objectContaining({ path: 'media_urls.0', message: 'this creator may post videos up to 180 s; this one lasts 181 s' })]);
    duration = 180;
    expect((await h.call('POST', PUBLISH, { body: video({}) })).status).toBe(200);
  });

  it('asks creator info only when an option or the duration could be refused', async () => {
    expect((await h.call('POST', PUBLISH, { body: video({ is_aigc: true }) })).status).toBe(200);
    expect(creatorCalls()).toBe(0);
  });

  it('accepts with a warning when creator info cannot be read; the check before posting decides', async () => {
    await server.close();
    const res = await h.call('POST', PUBLISH, { body: video({ privacy_level: 'PUBLIC_TO_EVERYONE' }) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { warnings: { path: string; code: string; message: string }[] };
    expect(body.warnings).toEqual([expect.objectContaining({ path: 'platform_options.tiktok', code: 'account_check_unavailable', message: expect.stringMatching(/creator info could not be read.*checked again right before posting/) })]);
    const v = (await (await h.call('POST', VALIDATE, { body: video({ privacy_level: 'PUBLIC_TO_EVERYONE' }) })).json()) as { valid: boolean; warnings: { code: string }[] };
    expect([v.valid, v.warnings.map((w) => w.code)]).toEqual([true, ['account_check_unavailable']]);
    server = await serveSimulators([]);
  });
});

describe('TikTok photo posts through POST /content/publish', () => {
  const images: MediaLookup = {
    describe: (_user, urls) => urls.map((url) => ({ url, kind: 'image', mimeType: 'image/jpeg', size: 100_000, prepared: false })),
  };
  const photos = (extra: Record<string, unknown>) => ({ caption: 'three', platforms: ['tiktok'], platform_types: { tiktok: ['photo'] }, media_urls: ['https://media.example.com/a.jpg', 'https://media.example.com/b.jpg'], scheduled_for: '2026-12-25T10:00:00Z', ...extra });

  it('accepts images as a photo post, refuses a cover outside them and a privacy level the creator lacks', async () => {
    const p = harness({ deps: { adapters: new Map([['tiktok', createTiktokAdapter()]]), mediaLookup: images, sandboxBaseUrl: (_pl, host) => server.baseUrl(host) } });
    p.store.connections.save(p.user.id, 'tiktok', { mode: 'sandbox', accountId: sim.creator.openId, pageId: null, pageName: null, secrets: { access_token: 'sandbox-tiktok-token' } });
    const ok = await p.call('POST', PUBLISH, { body: photos({ platform_options: { tiktok: { photo_cover_index: 1, privacy_level: 'SELF_ONLY' } } }) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { targets: { type: string }[] }).targets.map((t) => t.type)).toEqual(['photo']);
    const cover = await p.call('POST', PUBLISH, { body: photos({ platform_options: { tiktok: { photo_cover_index: 2 } } }) });
    expect((await errorOf(cover)).details?.map((d) => d.path)).toEqual(['platform_options.tiktok.photo_cover_index']);
    const level = await p.call('POST', PUBLISH, { body: photos({ platform_options: { tiktok: { privacy_level: 'PUBLIC_TO_EVERYONE' } } }) });
    expect((await errorOf(level)).details?.map((d) => d.path)).toEqual(['platform_options.tiktok.privacy_level']);
    // Images without the photo type are still a video post that needs a video.
    const asVideo = await p.call('POST', PUBLISH, { body: photos({ platform_types: undefined }) });
    expect((await errorOf(asVideo)).details?.map((d) => d.path)).toContain('media_urls');
  });
});
