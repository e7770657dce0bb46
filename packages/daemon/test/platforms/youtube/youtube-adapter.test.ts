import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createYoutubeAdapter } from '../../../src/platforms/youtube/adapter';
import { createYoutubeSimulator, type YoutubeSimulator } from '../../../src/platforms/youtube/sim/simulator';
import { nextPacificMidnight } from '../../../src/platforms/youtube/pacific-midnight';
import { tagsFrom, titleFrom, truncateBytes } from '../../../src/platforms/youtube/video-metadata';
import { validateYoutube } from '../../../src/platforms/youtube/validate';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { AuthExpiredError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import type { MediaItem } from '../../../src/platforms/adapter';
import { driveClock, fakeBytes, makeContext, mediaFile, RecordingClock, serveSimulators, type SimServer } from '../shared/harness';

let clock: RecordingClock;
let sim: YoutubeSimulator;
let server: SimServer;

beforeEach(async () => {
  clock = new RecordingClock();
  forgetRefreshes();
  sim = createYoutubeSimulator({ clock });
  server = await serveSimulators(sim.apps);
});
afterEach(() => server.close());

const KIB256 = 256 * 1024;
const adapter = createYoutubeAdapter({ chunkBytes: KIB256 });

function ctxFor(media: MediaItem[], extra: Partial<Parameters<typeof makeContext>[0]> = {}) {
  return makeContext({
    platform: 'youtube',
    type: 'video',
    caption: 'Launch day\nEverything we shipped this week. #launch #dev',
    media,
    secrets: { access_token: 'sandbox-yt' },
    clock,
    server,
    ...extra,
  });
}

const puts = () => sim.log.to('PUT', '/upload/youtube/v3/videos');
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('youtube adapter against the YouTube simulator', () => {
  it('starts a resumable session and uploads 256 KiB chunks, 308 with Range until 201 with the video', async () => {
    const video = mediaFile('v.mp4', fakeBytes('mp4', 700_000), 'video', 'video/mp4');
    const outcome = await adapter.publish(ctxFor([video]));

    const start = sim.log.requests[0]!;
    expect(`${start.method} ${start.path}`).toBe('POST /upload/youtube/v3/videos');
    expect(start.query).toEqual({ uploadType: 'resumable', part: 'snippet,status', notifySubscribers: 'true' });
    expect(start.headers['x-upload-content-length']).toBe('700000');
    expect(start.headers['x-upload-content-type']).toBe('video/mp4');
    expect(start.contentType).toBe('application/json; charset=UTF-8');
    expect(start.body).toEqual({
      snippet: { title: 'Launch day', description: 'Launch day\nEverything we shipped this week. #launch #dev', categoryId: '22', tags: ['launch', 'dev'] },
      status: { privacyStatus: 'public', selfDeclaredMadeForKids: false, containsSyntheticMedia: false, embeddable: true, license: 'youtube', publicStatsViewable: true },
    });
    expect(start.responseHeaders.location).toMatch(/\/www\.googleapis\.com\/upload\/youtube\/v3\/videos\?uploadType=resumable&upload_id=/);
    expect(puts().map((r) => [r.headers['content-range'], r.status, r.responseHeaders.range])).toEqual([
      ['bytes 0-262143/700000', 308, 'bytes=0-262143'],
      ['bytes 262144-524287/700000', 308, 'bytes=0-524287'],
      ['bytes 524288-699999/700000', 201, undefined],
    ]);
    const [post] = sim.log.posts;
    expect(post!.body.sha256).toBe(sha(video.path));
    expect(outcome).toEqual({ postId: post!.postId, postUrl: `https://www.youtube.com/watch?v=${post!.postId}` });
  });

  it('publishes shorts the same way and links them under /shorts/', async () => {
    const video = mediaFile('s.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const outcome = await adapter.publish({ ...ctxFor([video]), target: { ...ctxFor([video]).target, type: 'shorts' } });
    expect(outcome.postUrl).toBe(`https://www.youtube.com/shorts/${outcome.postId}`);
    expect(puts().map((r) => r.headers['content-range'])).toEqual(['bytes 0-999/1000']);
  });

  it('takes the privacy status and category from the connection', async () => {
    const video = mediaFile('p.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    await adapter.publish(ctxFor([video], { meta: { privacy_status: 'unlisted', category_id: '28', notify_subscribers: false } }));
    const start = sim.log.requests[0]!;
    expect(start.query.notifySubscribers).toBe('false');
    expect(start.body).toMatchObject({ snippet: { categoryId: '28' }, status: { privacyStatus: 'unlisted' } });
    expect(sim.log.posts[0]!.body.status).toMatchObject({ privacyStatus: 'unlisted' });
  });

  it('sends platform_options.youtube as snippet/status fields and notifySubscribers, over the connection and the caption', async () => {
    const video = mediaFile('o.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const options = {
      title: 'Release notes 2.0',
      description: 'Everything in 2.0, chapter by chapter.',
      privacy_status: 'private',
      tags: ['release notes', 'changelog'],
      category_id: '27',
      made_for_kids: true,
      notify_subscribers: false,
    };
    await adapter.publish(ctxFor([video], { options, meta: { privacy_status: 'unlisted', category_id: '28', notify_subscribers: true } }));
    const start = sim.log.requests[0]!;
    expect(start.query).toEqual({ uploadType: 'resumable', part: 'snippet,status', notifySubscribers: 'false' });
    expect(start.body).toEqual({
      snippet: { title: 'Release notes 2.0', description: 'Everything in 2.0, chapter by chapter.', categoryId: '27', tags: ['release notes', 'changelog'] },
      status: { privacyStatus: 'private', selfDeclaredMadeForKids: true, containsSyntheticMedia: false, embeddable: true, license: 'youtube', publicStatsViewable: true },
    });
    const post = sim.log.posts[0]!;
    expect(post.body.notifySubscribers).toBe(false);
    expect(post.body.snippet).toMatchObject({ title: 'Release notes 2.0', tags: ['release notes', 'changelog'], categoryId: '27' });
    expect(post.body.status).toMatchObject({ privacyStatus: 'private', selfDeclaredMadeForKids: true });
  });

  it('keeps the caption defaults for the options a job leaves out', async () => {
    const video = mediaFile('d.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    await adapter.publish(ctxFor([video], { options: { privacy_status: 'unlisted' } }));
    expect(sim.log.requests[0]!.body).toMatchObject({
      snippet: { title: 'Launch day', description: 'Launch day\nEverything we shipped this week. #launch #dev', categoryId: '22', tags: ['launch', 'dev'] },
      status: { privacyStatus: 'unlisted', selfDeclaredMadeForKids: false },
    });
    expect(sim.log.requests[0]!.query.notifySubscribers).toBe('true');
  });

  it('resumes an upload cut at 60% from the offset the session reports, not from zero', async () => {
    sim.log.inject({ method: 'PUT', path: '/upload/youtube/v3/videos', kind: 'cut', cutAtBytes: 600_000, skip: 2 });
    const video = mediaFile('cut.mp4', fakeBytes('mp4', 1_000_000), 'video', 'video/mp4');
    const outcome = await driveClock(clock, adapter.publish(ctxFor([video])));

    expect(puts().map((r) => [r.headers['content-range'], r.status])).toEqual([
      ['bytes 0-262143/1000000', 308],
      ['bytes 262144-524287/1000000', 308],
      ['bytes 524288-786431/1000000', 503],
      ['bytes */1000000', 308],
      ['bytes 600000-862143/1000000', 308],
      ['bytes 862144-999999/1000000', 201],
    ]);
    expect(puts()[3]!.responseHeaders.range).toBe('bytes=0-599999');
    expect(sim.log.to('POST', '/upload/youtube/v3/videos')).toHaveLength(1);
    expect(sim.log.posts).toHaveLength(1);
    expect(sim.log.posts[0]!.body.sha256).toBe(sha(video.path));
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
  });

  it('resumes in a later attempt by asking the checkpointed session how much it holds', async () => {
    sim.log.inject({ method: 'PUT', path: '/upload/youtube/v3/videos', kind: 'cut', cutAtBytes: 300_000, skip: 1 });
    const video = mediaFile('later.mp4', fakeBytes('mp4', 700_000), 'video', 'video/mp4');
    const ctx = ctxFor([video]);
    const first = createYoutubeAdapter({ chunkBytes: KIB256, maxResumes: 0 });
    expect(await first.publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    expect(ctx.checkpoint.data).toMatchObject({ sessionUri: expect.stringContaining('upload_id='), size: 700_000 });
    expect(await adapter.reconcile(ctx)).toEqual({ state: 'not_published', reason: 'The upload stopped at 300000 of 700000 bytes; publishing again resumes it' });

    const before = sim.log.requests.length;
    await adapter.publish(ctx);
    const after = sim.log.requests.slice(before).map((r) => `${r.method} ${r.headers['content-range']}`);
    expect(after).toEqual(['PUT bytes */700000', 'PUT bytes 300000-562143/700000', 'PUT bytes 562144-699999/700000']);
    expect(sim.log.to('POST', '/upload/youtube/v3/videos')).toHaveLength(1);
    expect(sim.quotaUsed()).toBe(1);
    expect(sim.log.posts[0]!.body.sha256).toBe(sha(video.path));
  });

  it('settles from the session when the connection drops after the last byte, without a second upload', async () => {
    sim.log.inject({ method: 'PUT', path: '/upload/youtube/v3/videos', kind: 'reset-after' });
    const video = mediaFile('last.mp4', fakeBytes('mp4', 2000), 'video', 'video/mp4');
    const ctx = ctxFor([video]);
    const outcome = await driveClock(clock, adapter.publish(ctx));
    expect(puts().map((r) => r.headers['content-range'])).toEqual(['bytes 0-1999/2000', 'bytes */2000']);
    expect(puts()[1]!.status).toBe(200);
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
    expect(sim.log.posts).toHaveLength(1);
    expect(await adapter.reconcile(ctx)).toEqual({ state: 'published', outcome });
  });

  it('starts a new session when the old one expired (404), since no video exists before the last byte', async () => {
    const video = mediaFile('exp.mp4', fakeBytes('mp4', 700_000), 'video', 'video/mp4');
    sim.log.inject({ method: 'PUT', path: '/upload/youtube/v3/videos', kind: 'cut', cutAtBytes: 100_000 });
    const ctx = ctxFor([video]);
    expect(await createYoutubeAdapter({ chunkBytes: KIB256, maxResumes: 0 }).publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    await clock.advance(8 * 24 * 3600_000);
    expect(await adapter.reconcile(ctx)).toEqual({ state: 'not_published', reason: expect.stringMatching(/expired/) });
    const outcome = await adapter.publish(ctx);
    expect(sim.log.to('POST', '/upload/youtube/v3/videos')).toHaveLength(2);
    expect(sim.log.posts.map((p) => p.postId)).toEqual([outcome.postId]);
  });

  it('reschedules to the quota reset at midnight Pacific when the upload quota is used up', async () => {
    sim.settings.insertsPerDay = 0;
    const video = mediaFile('q.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const err = await adapter.publish(ctxFor([video])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).platformCode).toBe('quotaExceeded');
    // ManualClock starts 2026-12-25 09:00 UTC = 01:00 PST: the reset is 2026-12-26 00:00 PST.
    expect((err as RateLimitedError).until).toBe(Date.UTC(2026, 11, 26, 8, 0, 0));
    expect((err as Error).message).toContain('you have exceeded your');
    expect(sim.log.posts).toHaveLength(0);
  });

  it('refreshes Google tokens without rotation, keeping the stored refresh token', async () => {
    const first = sim.issueTokens('gc-1');
    const video = mediaFile('t.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const secrets = { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'gc-1', client_secret: 'gs-1' };
    const ctx = ctxFor([video], { secrets, tokenExpiresAt: clock.now() - 1 });
    await adapter.publish(ctx);
    expect(sim.log.requests[0]!.host).toBe('oauth2.googleapis.com');
    expect(ctx.saved[0]!.secrets.refresh_token).toBeUndefined();
    expect(ctx.saved[0]!.tokenExpiresAt).toBe(clock.now() + 3599_000);
    expect(ctx.credentials.secrets.refresh_token).toBe(first.refresh_token);

    forgetRefreshes();
    const again = ctxFor([mediaFile('t2.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4')], { secrets, tokenExpiresAt: clock.now() - 1 });
    await adapter.publish(again);
    expect(sim.log.to('POST', '/token').map((r) => r.status)).toEqual([200, 200]);
  });

  it('marks the connection expired when Google says invalid_grant', async () => {
    const first = sim.issueTokens('gc-1');
    sim.revoke(first.refresh_token);
    const video = mediaFile('r.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const ctx = ctxFor([video], { secrets: { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'gc-1', client_secret: 'gs-1' }, tokenExpiresAt: clock.now() - 1 });
    const err = await adapter.publish(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect(ctx.expired).toEqual([expect.stringMatching(/invalid_grant: Token has been expired or revoked/)]);
  });

  it('refreshes once and repeats the session start after a 401', async () => {
    const first = sim.issueTokens('gc-1');
    const video = mediaFile('u.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    await adapter.publish(ctxFor([video], { secrets: { access_token: 'ya29.revoked', refresh_token: first.refresh_token, client_id: 'gc-1', client_secret: 'gs-1' }, tokenExpiresAt: clock.now() + 3_000_000 }));
    expect(sim.log.requests.map((r) => `${r.method} ${r.path} ${r.status}`).slice(0, 3)).toEqual([
      'POST /upload/youtube/v3/videos 401',
      'POST /token 200',
      'POST /upload/youtube/v3/videos 200',
    ]);
  });
});

describe('YouTube metadata and rules', () => {
  it('takes the title from the first line, at most 100 characters, without angle brackets', () => {
    expect(titleFrom('\n  Hello <world>  \nmore')).toBe('Hello ‹world›');
    const long = 'é'.repeat(150);
    expect([...titleFrom(long)].length).toBe(100);
    expect(titleFrom(long).endsWith('…')).toBe(true);
    expect(titleFrom('   ')).toBe('Untitled video');
  });

  it('keeps descriptions within 5,000 bytes without splitting a character', () => {
    const text = '€'.repeat(2000); // 3 bytes each
    const cut = truncateBytes(text, 5000);
    expect(new TextEncoder().encode(cut).length).toBe(4998);
    expect(cut).toBe('€'.repeat(1666));
  });

  it('turns hashtags into tags within 500 characters', () => {
    expect(tagsFrom('#a #b #a x#no #c_1')).toEqual(['a', 'b', 'c_1']);
    const many = Array.from({ length: 60 }, (_, i) => `#tag${String(i).padStart(6, '0')}`).join(' ');
    expect(tagsFrom(many).join(',').length).toBeLessThanOrEqual(500);
  });

  it('validates shorts as vertical or square and at most 3 minutes', () => {
    const base = { url: 'https://x/v.mp4', kind: 'video' as const, mimeType: 'video/mp4', size: 1000, prepared: true };
    const check = (m: object, type: 'video' | 'shorts' = 'shorts') => validateYoutube({ platform: 'youtube', type, caption: 'c', media: [{ ...base, ...m }], publicBaseUrl: null });
    expect(check({ width: 1080, height: 1920, durationSec: 59 })).toEqual([]);
    expect(check({ width: 1080, height: 1080, durationSec: 180 })).toEqual([]);
    expect(check({ width: 1920, height: 1080 })).toEqual([{ path: 'media_urls.0', message: 'A YouTube Short must be vertical or square; this video is 1920×1080' }]);
    expect(check({ durationSec: 181 })).toEqual([{ path: 'media_urls.0', message: 'A YouTube Short lasts at most 3 minutes; this video lasts 181 s' }]);
    expect(check({ width: 1920, height: 1080, durationSec: 600 }, 'video')).toEqual([]);
  });

  it('finds the next midnight in Pacific time across daylight saving changes', () => {
    expect(nextPacificMidnight(Date.UTC(2026, 6, 1, 12))).toBe(Date.UTC(2026, 6, 2, 7));
    expect(nextPacificMidnight(Date.UTC(2026, 2, 7, 20))).toBe(Date.UTC(2026, 2, 8, 8));
    expect(nextPacificMidnight(Date.UTC(2026, 2, 8, 12))).toBe(Date.UTC(2026, 2, 9, 7));
    expect(nextPacificMidnight(Date.UTC(2026, 10, 1, 6, 59))).toBe(Date.UTC(2026, 10, 1, 7));
  });
});
