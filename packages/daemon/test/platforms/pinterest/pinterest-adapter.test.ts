import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MediaItem } from '../../../src/platforms/adapter';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError } from '../../../src/platforms/errors';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { createPinterestAdapter, pinterestTime } from '../../../src/platforms/pinterest/adapter';
import { createPinterestRemover } from '../../../src/platforms/pinterest/remove';
import { createPinterestSimulator, PINTEREST_API_HOST, PINTEREST_WWW_HOST, type PinterestSimulator } from '../../../src/platforms/pinterest/sim/simulator';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';
import { checkTraffic } from './openapi-check';

let clock: RecordingClock;
let sim: PinterestSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new RecordingClock();
  sim = createPinterestSimulator({ clock, processingMs: 3_000 });
  server = await serveSimulators([
    { host: PINTEREST_API_HOST, app: sim.api },
    { host: PINTEREST_WWW_HOST, app: sim.www },
  ]);
  forgetRefreshes();
});
afterEach(async () => {
  // Every request the adapter sent in the test agrees with Pinterest's own OpenAPI description.
  expect(checkTraffic(sim.log.requests)).toEqual([]);
  await server.close();
});

const TOKEN = 'sandbox-pinterest-token';
const calls = () => sim.log.requests.map((r) => `${r.method} ${r.path}`);
const boards = () => sim.defaultAccount.boards;

function ctxFor(caption: string, media: MediaItem[] = [], extra: Partial<Parameters<typeof makeContext>[0]> = {}) {
  return makeContext({ platform: 'pinterest', type: 'pin', caption, media, secrets: { access_token: TOKEN }, clock, server, ...extra });
}
const jpeg = (n = 2_000) => mediaFile('a.jpg', fakeBytes('jpeg', n), 'image', 'image/jpeg');
const png = (n = 1_500) => mediaFile('b.png', fakeBytes('png', n), 'image', 'image/png');

describe('pinterest adapter against the Pinterest simulator', () => {
  it('pins one image from its bytes to the account\'s first board, with title, link and alt text', async () => {
    const adapter = createPinterestAdapter();
    const image = jpeg(3_000);
    const ctx = ctxFor('Linen shirts, washed twice', [image], { options: { title: 'Linen shirts', link: 'https://shop.example/linen?c=sand', alt_text: 'Three linen shirts on a rail' } });
    const out = await adapter.publish(ctx);

    expect(calls()).toEqual(['GET /v5/boards', 'POST /v5/pins']);
    const req = sim.log.to('POST', '/v5/pins')[0]!;
    expect(req.status).toBe(201);
    const body = req.body as Record<string, unknown>;
    expect(body).toMatchObject({ board_id: boards()[0], title: 'Linen shirts', description: 'Linen shirts, washed twice', link: 'https://shop.example/linen?c=sand', alt_text: 'Three linen shirts on a rail' });
    expect(body.media_source).toEqual({ source_type: 'image_base64', content_type: 'image/jpeg', data: expect.stringMatching(/^\/9j\//) });
    expect('dominant_color' in body).toBe(false);
    const [pin] = sim.pins();
    expect(pin!.media.images).toEqual([{ contentType: 'image/jpeg', url: null, bytes: 3_000 }]);
    expect(out).toEqual({ postId: pin!.id, postUrl: `https://www.pinterest.com/pin/${pin!.id}/` });
    expect(ctx.checkpointHistory.map((p) => Object.keys(p).sort().join(','))).toEqual(['boardId', 'pinRequestedAt,sent', 'pinId']);
  });

  it('pins by URL when the daemon has a public base URL, to the board the post names or the connection chose', async () => {
    const adapter = createPinterestAdapter();
    const image = mediaFile('c.jpg', fakeBytes('jpeg', 900), 'image', 'image/jpeg', 'https://media.example/c.jpg');
    await adapter.publish(ctxFor('by url', [image], { publicBaseUrl: 'https://media.example', options: { board_id: boards()[1] } }));
    const byUrl = sim.log.to('POST', '/v5/pins')[0]!.body as Record<string, unknown>;
    expect(byUrl.board_id).toBe(boards()[1]);
    expect(byUrl.media_source).toEqual({ source_type: 'image_url', url: 'https://media.example/c.jpg' });

    const chosen = ctxFor('connection board', [jpeg()]);
    chosen.credentials.pageId = boards()[1]!;
    await adapter.publish(chosen);
    expect((sim.log.to('POST', '/v5/pins')[1]!.body as Record<string, unknown>).board_id).toBe(boards()[1]);
    // Neither listed the boards: the board was known.
    expect(sim.log.to('GET', '/v5/boards')).toHaveLength(0);
  });

  it('makes a carousel of up to 5 images, as bytes or as URLs', async () => {
    const adapter = createPinterestAdapter();
    await adapter.publish(ctxFor('five', [jpeg(), png(), jpeg(1_200), png(1_100), jpeg(1_300)]));
    const bytes = sim.log.to('POST', '/v5/pins')[0]!.body as { media_source: { source_type: string; items: Array<{ content_type: string }> } };
    expect(bytes.media_source.source_type).toBe('multiple_image_base64');
    expect(bytes.media_source.items.map((i) => i.content_type)).toEqual(['image/jpeg', 'image/png', 'image/jpeg', 'image/png', 'image/jpeg']);
    expect(sim.pins()[0]!.media.type).toBe('multiple_images');

    const urls = [1, 2].map((i) => mediaFile(`u${i}.jpg`, fakeBytes('jpeg', 800), 'image', 'image/jpeg', `https://media.example/u${i}.jpg`));
    await adapter.publish(ctxFor('two', urls, { publicBaseUrl: 'https://media.example' }));
    expect((sim.log.to('POST', '/v5/pins')[1]!.body as Record<string, unknown>).media_source).toEqual({
      source_type: 'multiple_image_urls',
      items: [{ url: 'https://media.example/u1.jpg' }, { url: 'https://media.example/u2.jpg' }],
    });
  });

  it('makes a video pin: registers the media, uploads it with the form fields, polls until succeeded, pins with the cover', async () => {
    const adapter = createPinterestAdapter({ pollMs: 1_000 });
    const video = mediaFile('v.mp4', fakeBytes('mp4', 40_000), 'video', 'video/mp4');
    const ctx = ctxFor('How we dye linen', [video], { type: 'video_pin', options: { cover_image_url: 'https://media.example/cover.jpg', title: 'Dyeing' } });
    const out = await driveClock(clock, adapter.publish(ctx));

    const upload = sim.log.to('POST', '/media-uploads/')[0]!;
    expect(upload.status).toBe(204);
    expect(upload.body).toEqual({ fields: expect.arrayContaining(['key', 'policy', 'x-amz-signature', 'x-amz-credential']), file: '<40000 bytes>' });
    const statuses = sim.log.to('GET', /^\/v5\/media\/\d+$/).map((r) => (r.responseBody as { status: string }).status);
    expect(statuses[0]).toBe('processing');
    expect(statuses.at(-1)).toBe('succeeded');
    const mediaId = (sim.log.to('POST', '/v5/media')[0]!.responseBody as { media_id: string }).media_id;
    expect((sim.log.to('POST', '/v5/pins')[0]!.body as Record<string, unknown>).media_source).toEqual({ source_type: 'video_id', media_id: mediaId, cover_image_url: 'https://media.example/cover.jpg' });
    expect(sim.media(mediaId)).toMatchObject({ mediaType: 'video/mp4', bytes: 40_000 });
    expect(out.postId).toBe(sim.pins()[0]!.id);
    expect(sim.pins()[0]!.media).toMatchObject({ type: 'video', mediaId, cover: 'https://media.example/cover.jpg' });

    // A key frame as the cover instead.
    await driveClock(clock, adapter.publish(ctxFor('key frame', [video], { type: 'video_pin', options: { cover_key_frame_sec: 3 } })));
    expect((sim.log.to('POST', '/v5/pins')[1]!.body as { media_source: Record<string, unknown> }).media_source.cover_image_key_frame_time).toBe(3);
  });

  it('resumes a video pin from its checkpoint without registering or uploading again', async () => {
    const adapter = createPinterestAdapter({ pollMs: 1_000 });
    const video = mediaFile('v.mp4', fakeBytes('mp4', 20_000), 'video', 'video/mp4');
    const first = ctxFor('resumed', [video], { type: 'video_pin', options: { cover_key_frame_sec: 0 } });
    sim.log.inject({ method: 'GET', path: /^\/v5\/media\/\d+$/, kind: 'respond', status: 503, body: { code: 1, message: 'Service unavailable' } });
    await expect(driveClock(clock, adapter.publish(first))).rejects.toThrow(/video status failed \(503/);
    const again = ctxFor('resumed', [video], { type: 'video_pin', options: { cover_key_frame_sec: 0 }, checkpoint: first.checkpoint.data });
    await driveClock(clock, adapter.publish(again));
    expect(sim.log.to('POST', '/v5/media')).toHaveLength(1);
    expect(sim.log.to('POST', '/media-uploads/')).toHaveLength(1);
    expect(sim.pins()).toHaveLength(1);
  });

  it('refuses what Pinterest refuses, with its message: a board that is not the account\'s', async () => {
    const adapter = createPinterestAdapter();
    const other = sim.accountOf('sandbox_at_otheraccount.x').boards[0]!;
    const err = await adapter.publish(ctxFor('not mine', [jpeg()], { options: { board_id: other } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toBe('Pinterest pin failed (403 code 3): Not authorized to access board or Pin.');
    expect(sim.pins()).toHaveLength(0);
  });

  it('checkAccount names board_id when the board is not one of the account\'s', async () => {
    const adapter = createPinterestAdapter();
    const account = ctxFor('x');
    const other = sim.accountOf('sandbox_at_someoneelse.x').boards[0]!;
    expect(await adapter.checkAccount!({ type: 'pin', media: [], options: { board_id: boards()[1] }, account })).toEqual({ issues: [] });
    const res = await adapter.checkAccount!({ type: 'pin', media: [], options: { board_id: other }, account });
    expect(res).toEqual({ issues: [{ path: 'platform_options.pinterest.board_id', message: expect.stringContaining(`board ${other} is not one of the connected Pinterest account's boards (boards: Inspiration ${boards()[0]}, Products ${boards()[1]})`) }] });
  });

  it('maps 429 to a rate limit until the window resets, and 401 to an expired connection', async () => {
    const adapter = createPinterestAdapter();
    sim.settings.writesPerMinute = 0;
    const err = await adapter.publish(ctxFor('limited', [jpeg()], { options: { board_id: boards()[0] } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    const limited = sim.log.to('POST', '/v5/pins')[0]!;
    expect(limited.responseBody).toEqual({ code: 29, message: 'You have exceeded your rate limit. Try again later.' });
    expect(limited.responseHeaders['x-ratelimit-remaining']).toBe('0');
    expect((err as RateLimitedError).until).toBe(clock.now() + Number(limited.responseHeaders['x-ratelimit-reset']) * 1000);
    sim.settings.writesPerMinute = 100;
    const bad = await adapter.publish(ctxFor('bad token', [jpeg()], { secrets: { access_token: 'pina_unknown' }, options: { board_id: boards()[0] } })).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(AuthExpiredError);
  });

  it('refreshes an expired access token first (the app in HTTP Basic) and stores it before use', async () => {
    const t = sim.issueTokens('my-app');
    const adapter = createPinterestAdapter();
    const ctx = ctxFor('fresh', [jpeg()], { secrets: { access_token: t.access_token, refresh_token: t.refresh_token, client_id: 'my-app', client_secret: 's' }, tokenExpiresAt: clock.now() - 1, options: { board_id: boards()[0] } });
    await adapter.publish(ctx);
    expect(calls()).toEqual(['POST /v5/oauth/token', 'POST /v5/pins']);
    expect(sim.log.requests[0]!.body).toEqual({ grant_type: 'refresh_token', refresh_token: '…' });
    expect(ctx.saved).toHaveLength(1);
    expect(ctx.saved[0]!.secrets.access_token).not.toBe(t.access_token);
    expect(ctx.saved[0]!.tokenExpiresAt).toBe(clock.now() + 30 * 86_400_000);
  });
});

describe('pinterest exactly once', () => {
  it('finds the pin among the board\'s pins when the pin request got no answer', async () => {
    const adapter = createPinterestAdapter({ requestTimeoutMs: 1_000 });
    sim.log.inject({ method: 'POST', path: '/v5/pins', kind: 'reset-after' });
    const out = await adapter.publish(ctxFor('made but unanswered', [jpeg()], { options: { title: 'T', link: 'https://shop.example/x' } }));
    expect(sim.pins()).toHaveLength(1);
    expect(out.postId).toBe(sim.pins()[0]!.id);
    expect(sim.log.to('GET', `/v5/boards/${boards()[0]}/pins`)[0]!.query).toEqual({ page_size: '100' });
  });

  it('reconcile: published when found, not_published when never sent or not there, unknown when the board cannot be read', async () => {
    const adapter = createPinterestAdapter({ reconcileSettleMs: 5_000 });
    const first = ctxFor('crashed after the call', [jpeg()], { options: { title: 'Same title' } });
    await adapter.publish(first);
    const { pinId: _made, ...left } = first.checkpoint.data as Record<string, unknown>;
    // The pin went without a link: the checkpoint (merged as json_patch merges it) keeps no null member for it.
    expect(left.sent).toEqual({ title: 'Same title', description: 'crashed after the call' });
    const again = ctxFor('crashed after the call', [], { checkpoint: left, attemptStartedAt: first.target.attemptStartedAt });
    expect(await adapter.reconcile(again)).toEqual({ state: 'published', outcome: { postId: sim.pins()[0]!.id, postUrl: `https://www.pinterest.com/pin/${sim.pins()[0]!.id}/` } });

    // Same description, another title: not the pin this attempt made.
    const other = { ...left, sent: { title: 'Other title', description: 'crashed after the call', link: null } };
    expect((await driveClock(clock, adapter.reconcile(ctxFor('x', [], { checkpoint: other, attemptStartedAt: first.target.attemptStartedAt })))).state).toBe('not_published');

    expect(await adapter.reconcile(ctxFor('never', [], { checkpoint: { boardId: boards()[0] } }))).toEqual({ state: 'not_published', reason: expect.stringContaining('never sent') });

    sim.log.inject({ method: 'GET', path: /\/pins$/, kind: 'respond', status: 500, body: { code: 1, message: 'Internal error' }, times: 2 });
    const blind = await adapter.reconcile(ctxFor('x', [], { checkpoint: left }));
    expect(blind.state).toBe('unknown');
    expect(sim.pins()).toHaveLength(1);
  });

  it('an unanswered pin that Pinterest did not make stays unknown rather than being pinned again', async () => {
    const adapter = createPinterestAdapter({ requestTimeoutMs: 1_000, reconcileSettleMs: 0 });
    sim.log.inject({ method: 'POST', path: '/v5/pins', kind: 'respond', status: 502, body: { code: 1, message: 'Bad gateway' } });
    const err = await adapter.publish(ctxFor('gateway', [jpeg()], { options: { board_id: boards()[0] } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(sim.pins()).toHaveLength(0);
  });
});

describe('pinterest take-downs', () => {
  it('deletes a pin (DELETE /v5/pins/{id}), then answers already_gone; existence by GET /v5/pins/{id}', async () => {
    const adapter = createPinterestAdapter();
    const ctx = ctxFor('to take down', [jpeg()], { options: { board_id: boards()[0] } });
    const { postId } = await adapter.publish(ctx);
    const remover = createPinterestRemover();
    expect(await remover.postExists(ctx, postId)).toBe(true);
    expect(await remover.deletePost(ctx, postId)).toBe('deleted');
    expect(sim.pins()).toHaveLength(0);
    expect(sim.log.posts[0]!.removedAt).toBe(clock.now());
    expect(await remover.deletePost(ctx, postId)).toBe('already_gone');
    expect(await remover.postExists(ctx, postId)).toBe(false);
  });
});

describe('pinterest times', () => {
  it('reads Pinterest\'s zone-less created_at as UTC whatever the local zone', () => {
    const before = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(pinterestTime('2026-11-26T10:00:00')).toBe(Date.UTC(2026, 10, 26, 10, 0, 0));
      expect(pinterestTime('2026-11-26T10:00:00Z')).toBe(Date.UTC(2026, 10, 26, 10, 0, 0));
      expect(pinterestTime('2026-11-26T10:00:00+01:00')).toBe(Date.UTC(2026, 10, 26, 9, 0, 0));
      expect(pinterestTime(undefined)).toBeNaN();
    } finally {
      if (before === undefined) delete process.env.TZ;
      else process.env.TZ = before;
    }
  });
});
