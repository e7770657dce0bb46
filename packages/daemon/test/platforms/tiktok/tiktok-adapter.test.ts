import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTiktokAdapter } from '../../../src/platforms/tiktok/adapter';
import { planChunks, planProblem, TIKTOK_CHUNK_RULES, type ChunkRules } from '../../../src/platforms/tiktok/chunk-plan';
import { createTiktokSimulator, TIKTOK_HOST, type TiktokSimulator } from '../../../src/platforms/tiktok/sim/simulator';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { AuthExpiredError, PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import type { MediaItem } from '../../../src/platforms/adapter';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

/** TikTok's chunk rules scaled down 80x so multi-chunk uploads stay small in tests. */
const SMALL: ChunkRules = { min: 64 * 1024, max: 256 * 1024, finalMax: 512 * 1024, maxChunks: 1000 };
/** The Content-Range of each PUT when `chunked` uploads a 650,000-byte video: 102,400-byte chunks, the sixth taking the rest. */
const SIX_CHUNKS_OF_650_000 = [
  'bytes 0-102399/650000',
  'bytes 102400-204799/650000',
  'bytes 204800-307199/650000',
  'bytes 307200-409599/650000',
  'bytes 409600-511999/650000',
  'bytes 512000-649999/650000',
];

let clock: RecordingClock;
let sim: TiktokSimulator;
let server: SimServer;

async function start(opts: Partial<Parameters<typeof createTiktokSimulator>[0]> = {}) {
  await server?.close();
  sim = createTiktokSimulator({ clock, ...opts });
  server = await serveSimulators([{ host: TIKTOK_HOST, app: sim.app }]);
}

beforeEach(async () => {
  clock = new RecordingClock();
  forgetRefreshes();
  await start();
});
afterEach(() => server.close());

const adapter = createTiktokAdapter();
const chunked = createTiktokAdapter({ chunkRules: SMALL, chunkBytes: 100 * 1024 });

function ctxFor(media: MediaItem[], extra: Partial<Parameters<typeof makeContext>[0]> = {}) {
  return makeContext({ platform: 'tiktok', type: 'video', caption: 'Dance #fyp', media, secrets: { access_token: 'sandbox-tt' }, clock, server, ...extra });
}

const calls = () => sim.log.requests.map((r) => `${r.method} ${r.path}`);
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('TikTok chunk arithmetic', () => {
  it('sends files up to 64 MiB as one chunk and splits larger ones into floor(size/chunk) chunks', () => {
    expect(planChunks(3_000_000)).toEqual({ videoSize: 3_000_000, chunkSize: 3_000_000, totalChunkCount: 1 });
    expect(planChunks(64 * 1024 * 1024)).toEqual({ videoSize: 67_108_864, chunkSize: 67_108_864, totalChunkCount: 1 });
    const big = planChunks(105 * 1024 * 1024 + 123);
    expect(big).toEqual({ videoSize: 110_100_603, chunkSize: 10_485_760, totalChunkCount: 10 });
    expect(planProblem(big)).toBeNull();
  });

  it('grows the chunk size when 1000 chunks would not hold the file', () => {
    const plan = planChunks(20 * 1024 * 1024 * 1024);
    expect(plan.totalChunkCount).toBeLessThanOrEqual(1000);
    expect(planProblem(plan, TIKTOK_CHUNK_RULES)).toBeNull();
  });

  it('rejects plans that break the documented rules', () => {
    expect(planProblem({ videoSize: 3_000_000, chunkSize: 1_000_000, totalChunkCount: 3 })).toMatch(/one chunk/);
    expect(planProblem({ videoSize: 100_000_000, chunkSize: 10_000_000, totalChunkCount: 11 })).toMatch(/floor/);
    expect(planProblem({ videoSize: 100_000_000, chunkSize: 2_000_000, totalChunkCount: 50 })).toMatch(/between/);
    expect(planProblem({ videoSize: 390, chunkSize: 100, totalChunkCount: 3 }, { min: 10, max: 100, finalMax: 120, maxChunks: 1000 })).toMatch(/final chunk/);
  });
});

describe('tiktok adapter against the TikTok simulator', () => {
  it('asks for creator info, inits a FILE_UPLOAD, PUTs the chunk and polls status to PUBLISH_COMPLETE', async () => {
    const video = mediaFile('v.mp4', fakeBytes('mp4', 200_000), 'video', 'video/mp4');
    const outcome = await driveClock(clock, adapter.publish(ctxFor([video])));

    expect(calls()).toEqual([
      'POST /v2/post/publish/creator_info/query/',
      'POST /v2/post/publish/video/init/',
      'PUT /upload/video/',
      'POST /v2/post/publish/status/fetch/',
      'POST /v2/post/publish/status/fetch/',
    ]);
    const init = sim.log.requests[1]!;
    expect(init.contentType).toBe('application/json; charset=UTF-8');
    expect(init.body).toEqual({
      post_info: { title: 'Dance #fyp', privacy_level: 'SELF_ONLY', disable_duet: false, disable_stitch: true, disable_comment: false, brand_content_toggle: false, brand_organic_toggle: false, is_aigc: false },
      source_info: { source: 'FILE_UPLOAD', video_size: 200_000, chunk_size: 200_000, total_chunk_count: 1 },
    });
    expect((init.responseBody as { error: { code: string } }).error.code).toBe('ok');
    const put = sim.log.requests[2]!;
    expect(put.headers['content-range']).toBe('bytes 0-199999/200000');
    expect(put.headers['content-type']).toBe('video/mp4');
    expect(put.status).toBe(201);
    expect(put.responseHeaders['content-range']).toBe('bytes 0-199999/200000');
    const statuses = sim.log.requests.slice(3).map((r) => (r.responseBody as { data: { status: string } }).data.status);
    expect(statuses).toEqual(['PROCESSING_UPLOAD', 'PUBLISH_COMPLETE']);
    expect(clock.sleeps).toEqual([5000]);

    const [post] = sim.log.posts;
    expect(post!.body.sha256).toBe(sha(video.path));
    expect(outcome).toEqual({ postId: post!.postId, postUrl: 'https://www.tiktok.com/@sandbox_tiktok' });
  });

  it('uploads a large video in the declared chunks with Content-Range, 206 until the last answers 201', async () => {
    await start({ chunkRules: SMALL });
    const video = mediaFile('big.mp4', fakeBytes('mp4', 650_000), 'video', 'video/mp4');
    await driveClock(clock, chunked.publish(ctxFor([video])));

    expect((sim.log.requests[1]!.body as { source_info: unknown }).source_info).toEqual({ source: 'FILE_UPLOAD', video_size: 650_000, chunk_size: 102_400, total_chunk_count: 6 });
    const puts = sim.log.to('PUT', '/upload/video/');
    expect(puts.map((r) => r.headers['content-range'])).toEqual(SIX_CHUNKS_OF_650_000);
    expect(puts.map((r) => r.status)).toEqual([206, 206, 206, 206, 206, 201]);
    expect(sim.log.posts[0]!.body.sha256).toBe(sha(video.path));
  });

  it('resumes from the progress a 416 reports when a chunk landed but its answer was lost', async () => {
    await start({ chunkRules: SMALL });
    sim.log.inject({ method: 'PUT', path: '/upload/video/', kind: 'reset-after', skip: 1 });
    const video = mediaFile('r.mp4', fakeBytes('mp4', 650_000), 'video', 'video/mp4');
    await driveClock(clock, chunked.publish(ctxFor([video])));

    const puts = sim.log.to('PUT', '/upload/video/');
    expect(puts.map((r) => [r.headers['content-range'], r.status])).toEqual([
      ['bytes 0-102399/650000', 206],
      ['bytes 102400-204799/650000', -1],
      ['bytes 102400-204799/650000', 416],
      ['bytes 204800-307199/650000', 206],
      ['bytes 307200-409599/650000', 206],
      ['bytes 409600-511999/650000', 206],
      ['bytes 512000-649999/650000', 201],
    ]);
    expect(puts[2]!.responseHeaders['content-range']).toBe('bytes 0-204799/650000');
    expect(sim.log.posts).toHaveLength(1);
    expect(sim.log.posts[0]!.body.sha256).toBe(sha(video.path));
  });

  it('continues an interrupted upload on the next attempt from the bytes TikTok holds, without a new init', async () => {
    await start({ chunkRules: SMALL });
    sim.log.inject({ method: 'PUT', path: '/upload/video/', kind: 'respond', status: 503, body: { error: { code: 'internal_error', message: 'busy' } }, skip: 2, times: 4 });
    const video = mediaFile('i.mp4', fakeBytes('mp4', 650_000), 'video', 'video/mp4');
    const ctx = ctxFor([video]);
    const err = await driveClock(clock, chunked.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(await chunked.reconcile(ctx)).toEqual({ state: 'not_published', reason: expect.stringMatching(/interrupted/) });

    await driveClock(clock, chunked.publish(ctx));
    expect(sim.log.to('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
    const ranges = sim.log.to('PUT', '/upload/video/').filter((r) => r.status !== 503).map((r) => r.headers['content-range']);
    expect(ranges).toEqual(SIX_CHUNKS_OF_650_000);
    expect(sim.log.posts[0]!.body.sha256).toBe(sha(video.path));
  });

  it('lets TikTok pull the video when the daemon has a public base URL', async () => {
    sim.settings.verifiedUrlPrefixes.push('https://media.example.com/');
    const video = mediaFile('p.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4', 'https://media.example.com/p.mp4');
    const outcome = await driveClock(clock, adapter.publish(ctxFor([video], { publicBaseUrl: 'https://media.example.com' })));
    expect(calls()).toEqual(['POST /v2/post/publish/creator_info/query/', 'POST /v2/post/publish/video/init/', 'POST /v2/post/publish/status/fetch/', 'POST /v2/post/publish/status/fetch/']);
    expect((sim.log.requests[1]!.body as { source_info: unknown }).source_info).toEqual({ source: 'PULL_FROM_URL', video_url: 'https://media.example.com/p.mp4' });
    expect((sim.log.requests[2]!.responseBody as { data: { status: string } }).data.status).toBe('PROCESSING_DOWNLOAD');
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
  });

  it('uploads the file instead when TikTok refuses to pull from an unverified domain', async () => {
    const video = mediaFile('nv.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4', 'https://unverified.example.com/nv.mp4');
    await driveClock(clock, adapter.publish(ctxFor([video], { publicBaseUrl: 'https://unverified.example.com' })));
    const inits = sim.log.to('POST', '/v2/post/publish/video/init/');
    expect(inits.map((r) => (r.body as { source_info: { source: string } }).source_info.source)).toEqual(['PULL_FROM_URL', 'FILE_UPLOAD']);
    expect(inits[0]!.responseBody).toMatchObject({ error: { code: 'url_ownership_unverified' } });
    expect(sim.log.to('PUT', '/upload/video/')).toHaveLength(1);
    expect(sim.log.posts).toHaveLength(1);
  });

  it('posts publicly for an audited app and waits for the post id that moderation gives', async () => {
    await start({ audited: true, moderationMs: 20_000 });
    const video = mediaFile('pub.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const outcome = await driveClock(clock, adapter.publish(ctxFor([video], { meta: { audited: true } })));
    expect((sim.log.requests[1]!.body as { post_info: { privacy_level: string } }).post_info.privacy_level).toBe('PUBLIC_TO_EVERYONE');
    const ids = sim.log.to('POST', '/v2/post/publish/status/fetch/').map((r) => (r.responseBody as { data: { publicaly_available_post_id: number[] } }).data.publicaly_available_post_id);
    expect(ids.at(-2)).toEqual([]);
    expect(ids.at(-1)).toHaveLength(1);
    expect(outcome).toEqual({ postId: String(ids.at(-1)![0]), postUrl: `https://www.tiktok.com/@sandbox_tiktok/video/${ids.at(-1)![0]}` });
    expect(sim.log.posts[0]!.postUrl).toBe(outcome.postUrl);
  });

  it('sends platform_options.tiktok in post_info exactly as TikTok documents it', async () => {
    await start({ audited: true });
    const video = mediaFile('opt.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const options = {
      privacy_level: 'MUTUAL_FOLLOW_FRIENDS',
      disable_comment: true,
      disable_duet: false,
      disable_stitch: true,
      brand_content_toggle: true,
      brand_organic_toggle: true,
      is_aigc: true,
      video_cover_timestamp_ms: 1500,
    };
    await driveClock(clock, adapter.publish(ctxFor([video], { options, meta: { audited: true, is_aigc: false } })));
    const init = sim.log.to('POST', '/v2/post/publish/video/init/')[0]!;
    expect((init.body as { post_info: unknown }).post_info).toEqual({ title: 'Dance #fyp', ...options });
    expect(sim.log.posts[0]!.body.post_info).toEqual({ title: 'Dance #fyp', ...options });
    expect(sim.log.posts[0]!.body.privacy_level).toBe('MUTUAL_FOLLOW_FRIENDS');
  });

  it('keeps the creator\'s "No one" settings over the options: a private account cannot allow duets', async () => {
    const video = mediaFile('nd.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    await driveClock(clock, adapter.publish(ctxFor([video], { options: { privacy_level: 'SELF_ONLY', disable_stitch: false } })));
    const info = (sim.log.requests[0]!.responseBody as { data: { stitch_disabled: boolean } }).data;
    expect(info.stitch_disabled).toBe(true);
    expect((sim.log.requests[1]!.body as { post_info: Record<string, unknown> }).post_info).toMatchObject({ privacy_level: 'SELF_ONLY', disable_stitch: true, disable_duet: false });
  });

  it('refuses a requested privacy level the creator does not have before init, naming the option', async () => {
    const video = mediaFile('pl.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    // The sandbox creator is a private account: FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY.
    const err = await adapter.publish(ctxFor([video], { options: { privacy_level: 'PUBLIC_TO_EVERYONE' }, meta: { privacy_level: 'SELF_ONLY' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('privacy_level_option_mismatch');
    expect((err as Error).message).toBe(
      "platform_options.tiktok.privacy_level: PUBLIC_TO_EVERYONE is not one of this creator's privacy levels now (FOLLOWER_OF_CREATOR, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY)",
    );
    expect(calls()).toEqual(['POST /v2/post/publish/creator_info/query/']);
  });

  it('fails permanently with TikTok\'s code, message and log id when an unaudited app posts publicly', async () => {
    sim.creator.privateAccount = false;
    const video = mediaFile('u.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const err = await adapter.publish(ctxFor([video], { meta: { privacy_level: 'PUBLIC_TO_EVERYONE' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('unaudited_client_can_only_post_to_private_accounts');
    expect((err as Error).message).toMatch(/Unaudited clients can only post.*SELF_ONLY.*\[log_id \w+\]/);
  });

  it('fails permanently on a media fail_reason and retries afresh after an internal one', async () => {
    sim.settings.failReason = 'duration_check_failed';
    const video = mediaFile('f.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const err = await driveClock(clock, adapter.publish(ctxFor([video]))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('duration_check_failed');

    sim.settings.failReason = 'internal';
    const ctx = ctxFor([video]);
    expect(await driveClock(clock, adapter.publish(ctx)).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    sim.settings.failReason = null;
    await driveClock(clock, adapter.publish(ctx));
    expect(sim.log.to('POST', '/v2/post/publish/video/init/')).toHaveLength(3);
    expect(sim.log.posts).toHaveLength(1);
  });

  it('turns rate_limit_exceeded into a one-minute rate limit', async () => {
    sim.log.inject({ method: 'POST', path: '/v2/post/publish/video/init/', kind: 'respond', status: 429, body: { data: {}, error: { code: 'rate_limit_exceeded', message: 'Too many requests', log_id: 'L1' } } });
    const video = mediaFile('l.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const err = await adapter.publish(ctxFor([video])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).until).toBe(clock.now() + 60_000);
  });

  it('settles a publish interrupted after the upload through reconcile, from the publish id', async () => {
    const video = mediaFile('c.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    // The status answer after the upload never arrives: the process "crashes" with the upload done.
    sim.log.inject({ method: 'POST', path: '/v2/post/publish/status/fetch/', kind: 'respond', status: 500, body: { data: {}, error: { code: 'internal_error', message: 'boom' } }, times: 1 });
    const ctx = ctxFor([video]);
    expect(await adapter.publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    expect(ctx.checkpoint.data).toMatchObject({ uploadedAll: true, source: 'FILE_UPLOAD' });
    const result = await driveClock(clock, adapter.reconcile(ctx));
    expect(result).toEqual({ state: 'published', outcome: { postId: sim.log.posts[0]!.postId, postUrl: 'https://www.tiktok.com/@sandbox_tiktok' } });
    expect(sim.log.to('POST', '/v2/post/publish/video/init/')).toHaveLength(1);
    expect(await adapter.reconcile(ctxFor([video]))).toEqual({ state: 'not_published', reason: expect.stringMatching(/never gave/) });
  });
});

describe('TikTok tokens', () => {
  it('rotates the refresh token, storing the new pair with both lifetimes before the API call', async () => {
    const first = sim.issueTokens('ck-1');
    const video = mediaFile('t.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const ctx = ctxFor([video], { secrets: { access_token: first.access_token, refresh_token: first.refresh_token, client_key: 'ck-1', client_secret: 'cs-1' }, tokenExpiresAt: clock.now() + 60_000 });
    await driveClock(clock, adapter.publish(ctx));
    expect(calls()[0]).toBe('POST /v2/oauth/token/');
    expect(sim.log.requests[0]!.body).toMatchObject({ grant_type: 'refresh_token', refresh_token: first.refresh_token, client_key: 'ck-1', client_secret: '…' });
    const saved = ctx.saved[0]!;
    expect(saved.secrets.refresh_token).not.toBe(first.refresh_token);
    expect(saved.tokenExpiresAt).toBe(sim.log.requests[0]!.at + 7200_000);
    expect(saved.refreshExpiresAt).toBe(sim.log.requests[0]!.at + 180 * 86_400_000);
    expect(sim.refreshTokenUsed(first.refresh_token)).toBe(true);

    // The spent token is refused: a connection that lost the new one is marked expired, not retried forever.
    forgetRefreshes();
    const stale = ctxFor([video], { secrets: { access_token: 'x', refresh_token: first.refresh_token, client_key: 'ck-1', client_secret: 'cs-1' }, tokenExpiresAt: clock.now() - 1 });
    expect(await adapter.publish(stale).catch((e: unknown) => e)).toBeInstanceOf(AuthExpiredError);
    expect(stale.expired).toEqual([expect.stringMatching(/invalid_grant/)]);
  });

  it('refreshes once and repeats the call when TikTok says access_token_invalid', async () => {
    const first = sim.issueTokens('ck-1');
    const video = mediaFile('a.mp4', fakeBytes('mp4', 5000), 'video', 'video/mp4');
    const ctx = ctxFor([video], { secrets: { access_token: 'act.revoked', refresh_token: first.refresh_token, client_key: 'ck-1', client_secret: 'cs-1' }, tokenExpiresAt: clock.now() + 3600_000 });
    await driveClock(clock, adapter.publish(ctx));
    expect(calls().slice(0, 3)).toEqual(['POST /v2/post/publish/creator_info/query/', 'POST /v2/oauth/token/', 'POST /v2/post/publish/creator_info/query/']);
    expect(sim.log.requests[0]!.responseBody).toMatchObject({ error: { code: 'access_token_invalid' } });
  });
});
