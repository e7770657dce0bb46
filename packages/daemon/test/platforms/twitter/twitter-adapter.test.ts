import { describe, expect, it } from 'vitest';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import { forgetRefreshes } from '../../../src/platforms/shared/ensure-access-token';
import { AuthExpiredError, OutcomeUnknownError, PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import type { TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import type { MediaItem } from '../../../src/platforms/adapter';
import type { RecordingClock } from '../shared/harness';
import { driveClock, fakeBytes, makeContext, mediaFile, type SimServer } from '../shared/harness';
import { useXSimulator } from './use-x-simulator';

let clock: RecordingClock;
let sim: TwitterSimulator;
let server: SimServer;
// Every request the adapter sent and every answer the simulator gave must agree with X's OpenAPI description.
useXSimulator((w) => ({ clock, sim, server } = w), { openApi: true });

const adapter = createTwitterAdapter({ chunkBytes: 256 * 1024, requestTimeoutMs: 2_000 });

function ctxFor(caption: string, media: MediaItem[] = [], extra: Partial<Parameters<typeof makeContext>[0]> = {}) {
  return makeContext({
    platform: 'twitter',
    type: 'tweet',
    caption,
    media,
    secrets: { access_token: 'sandbox-x-token' },
    meta: { username: 'sandbox_x' },
    accountId: sim.defaultUser.id,
    clock,
    server,
    ...extra,
  });
}

const calls = () => sim.log.requests.map((r) => `${r.method} ${r.path}`);

describe('twitter adapter against the X simulator', () => {
  it('publishes a text post with POST /2/tweets and returns the post id and permalink', async () => {
    const ctx = ctxFor('Hello from socialpub https://example.com/a/very/long/link 🎉');
    const outcome = await adapter.publish(ctx);

    expect(calls()).toEqual(['POST /2/tweets']);
    const req = sim.log.requests[0]!;
    expect(req.body).toEqual({ text: 'Hello from socialpub https://example.com/a/very/long/link 🎉' });
    expect(req.status).toBe(201);
    const [post] = sim.log.posts;
    expect(outcome).toEqual({ postId: post!.postId, postUrl: post!.postUrl });
    expect(outcome.postUrl).toBe(`https://x.com/sandbox_x/status/${post!.postId}`);
    expect(Number(req.responseHeaders['x-rate-limit-remaining'])).toBe(99);
    // The post request is checkpointed before it is sent, the id after.
    expect(ctx.checkpointHistory.map((p) => Object.keys(p)[0])).toEqual(['tweetRequestedAt', 'tweetId']);
  });

  it('asks X for a handle not stored at connect time once per account, not once a post', async () => {
    const fresh = createTwitterAdapter({ requestTimeoutMs: 2_000 });
    const unnamed = { meta: {}, accountId: sim.defaultUser.id };
    const first = await fresh.publish(ctxFor('the first post of an unnamed connection', [], unnamed));
    const second = await fresh.publish(ctxFor('its second post', [], unnamed));

    expect(calls()).toEqual(['POST /2/tweets', 'GET /2/users/me', 'POST /2/tweets']);
    expect(first.postUrl).toBe(`https://x.com/sandbox_x/status/${sim.log.posts[0]!.postId}`);
    expect(second.postUrl).toBe(`https://x.com/sandbox_x/status/${sim.log.posts[1]!.postId}`);
    // Another account is asked for its own.
    await fresh.publish(ctxFor('a post of another account', [], { meta: {}, accountId: 'another-x-account' }));
    expect(calls().slice(3)).toEqual(['POST /2/tweets', 'GET /2/users/me']);
  });

  it('asks once for two posts of one account in flight together', async () => {
    const fresh = createTwitterAdapter({ requestTimeoutMs: 2_000 });
    const unnamed = { meta: {}, accountId: 'x-account-with-two-posts' };
    const [a, b] = await Promise.all([fresh.publish(ctxFor('one of two at once', [], unnamed)), fresh.publish(ctxFor('the other of two at once', [], unnamed))]);
    expect(calls().filter((c) => c === 'GET /2/users/me')).toHaveLength(1);
    expect([a.postUrl, b.postUrl].every((u) => u?.startsWith('https://x.com/sandbox_x/status/'))).toBe(true);
  });

  it('uploads images with the simple upload and attaches their ids', async () => {
    const a = mediaFile('a.png', fakeBytes('png', 40_000), 'image', 'image/png');
    const b = mediaFile('b.jpg', fakeBytes('jpeg', 30_000), 'image', 'image/jpeg');
    const outcome = await adapter.publish(ctxFor('two pictures', [a, b]));

    expect(calls()).toEqual(['POST /2/media/upload', 'POST /2/media/upload', 'POST /2/tweets']);
    expect(sim.log.requests[0]!.body).toEqual({ media_category: 'tweet_image', media: '<40000 bytes>' });
    expect(sim.log.requests[0]!.contentType).toMatch(/^multipart\/form-data/);
    const ids = sim.log.requests.slice(0, 2).map((r) => (r.responseBody as { data: { id: string } }).data.id);
    expect(sim.log.requests[2]!.body).toEqual({ text: 'two pictures', media: { media_ids: ids } });
    expect(sim.log.posts[0]!.postId).toBe(outcome.postId);
  });

  it('uploads a video with initialize, append and finalize, waiting check_after_secs until processing succeeds', async () => {
    const video = mediaFile('v.mp4', fakeBytes('mp4', 600_000), 'video', 'video/mp4');
    const outcome = await driveClock(clock, adapter.publish(ctxFor('a video', [video])));

    const id = (sim.log.requests[0]!.responseBody as { data: { id: string } }).data.id;
    expect(calls()).toEqual([
      'POST /2/media/upload/initialize',
      `POST /2/media/upload/${id}/append`,
      `POST /2/media/upload/${id}/append`,
      `POST /2/media/upload/${id}/append`,
      `POST /2/media/upload/${id}/finalize`,
      'GET /2/media/upload',
      'GET /2/media/upload',
      'POST /2/tweets',
    ]);
    expect(sim.log.requests[0]!.body).toEqual({ media_type: 'video/mp4', total_bytes: 600_000, media_category: 'tweet_video' });
    expect(sim.log.requests.slice(1, 4).map((r) => r.body)).toEqual([
      { segment_index: '0', media: '<262144 bytes>' },
      { segment_index: '1', media: '<262144 bytes>' },
      { segment_index: '2', media: `<${600_000 - 2 * 262_144} bytes>` },
    ]);
    const states = sim.log.requests.slice(4, 7).map((r) => (r.responseBody as { data: { processing_info: { state: string } } }).data.processing_info.state);
    expect(states).toEqual(['pending', 'in_progress', 'succeeded']);
    expect(sim.log.requests[5]!.query).toEqual({ command: 'STATUS', media_id: id });
    // finalize said check after 1 s; the first STATUS said 4 s more (processing takes 5 s).
    expect(clock.sleeps).toEqual([1000, 4000]);
    expect(sim.log.requests[7]!.body).toEqual({ text: 'a video', media: { media_ids: [id] } });
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
  });

  it('uploads an animated GIF through the chunked flow as tweet_gif', async () => {
    const gif = mediaFile('g.gif', fakeBytes('gif', 100_000), 'image', 'image/gif');
    await driveClock(clock, adapter.publish(ctxFor('a gif', [gif])));
    expect(sim.log.requests[0]!.body).toEqual({ media_type: 'image/gif', total_bytes: 100_000, media_category: 'tweet_gif' });
    expect(sim.log.posts[0]!.body.media).toEqual([expect.objectContaining({ category: 'tweet_gif', bytes: 100_000 })]);
  });

  it('fails permanently when X cannot process the video', async () => {
    sim.settings.failProcessing = true;
    const video = mediaFile('bad.mp4', fakeBytes('mp4', 1000), 'video', 'video/mp4');
    const err = await driveClock(clock, adapter.publish(ctxFor('broken', [video]))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toMatch(/could not process media 1/);
    expect(sim.log.posts).toHaveLength(0);
  });

  it('settles a timed-out post that X made as published by looking it up, never posting twice', async () => {
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'hang-after' });
    const quick = createTwitterAdapter({ requestTimeoutMs: 300 });
    const ctx = ctxFor('made it, but nobody heard');
    const outcome = await quick.publish(ctx);

    expect(calls()).toEqual(['POST /2/tweets', `GET /2/users/${sim.defaultUser.id}/tweets`]);
    expect(sim.log.requests[0]!.status).toBe(-1);
    expect(sim.log.posts).toHaveLength(1);
    expect(outcome).toEqual({ postId: sim.log.posts[0]!.postId, postUrl: sim.log.posts[0]!.postUrl });
    const lookup = sim.log.requests[1]!;
    expect(lookup.query).toEqual({ start_time: new Date(ctx.target.attemptStartedAt - 5000).toISOString().replace('.000Z', 'Z'), max_results: '100', exclude: 'replies,retweets' });

    // Publishing the same target again returns the stored post, without a second POST.
    expect((await quick.publish(ctx)).postId).toBe(outcome.postId);
    expect(sim.log.to('POST', '/2/tweets')).toHaveLength(1);
  });

  it('reconciles a post made before a crash from the text, since the attempt began', async () => {
    const startedAt = clock.now();
    await adapter.publish(ctxFor('posted, then the daemon died'));
    await clock.advance(60_000);
    const ctx = ctxFor('posted, then the daemon died', [], { checkpoint: { tweetRequestedAt: startedAt + 10 }, attemptStartedAt: startedAt, accountId: 'sandbox_twitter_abc', meta: {} });
    const result = await adapter.reconcile(ctx);
    expect(result).toEqual({ state: 'published', outcome: { postId: sim.log.posts[0]!.postId, postUrl: sim.log.posts[0]!.postUrl } });
    expect(calls().slice(1)).toEqual(['GET /2/users/me', `GET /2/users/${sim.defaultUser.id}/tweets`, 'GET /2/users/me']);
    expect(sim.log.posts).toHaveLength(1);
  });

  it('leaves an unanswered post for review when X shows no such post even after the settle time', async () => {
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', status: 503, body: { code: 503, message: 'Service Unavailable' } });
    const err = await driveClock(clock, adapter.publish(ctxFor('did it land?')), 5000).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OutcomeUnknownError);
    expect(clock.sleeps).toEqual([30_000]);
    expect(sim.log.to('POST', '/2/tweets')).toHaveLength(1);
  });

  it('reports not_published from reconcile when the post request was never sent', async () => {
    const ctx = ctxFor('only media so far', [], { checkpoint: { media: {} } });
    expect(await adapter.reconcile(ctx)).toEqual({ state: 'not_published', reason: expect.stringMatching(/never sent/) });
  });

  it('concludes not_published only after the settle time when X shows no such post', async () => {
    const ctx = ctxFor('lost on the way', [], { checkpoint: { tweetRequestedAt: clock.now() } });
    const result = await driveClock(clock, adapter.reconcile(ctx), 5000);
    expect(result.state).toBe('not_published');
    expect(clock.sleeps).toEqual([30_000]);
    expect(sim.log.to('GET', /^\/2\/users\/\d+\/tweets$/)).toHaveLength(2);
  });

  it('fails a duplicate post permanently and says that it is a duplicate', async () => {
    await adapter.publish(ctxFor('same words twice'));
    const err = await adapter.publish(ctxFor('same words twice')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('duplicate-content');
    expect((err as Error).message).toMatch(/duplicate content/);
    expect((err as Error).message).toContain('You are not allowed to create a Tweet with duplicate content.');
    expect(sim.log.requests[1]!.status).toBe(403);
  });

  it('turns a 429 into a rate limit that lasts until x-rate-limit-reset', async () => {
    sim.settings.postsPer15Min = 1;
    await adapter.publish(ctxFor('first'));
    const err = await adapter.publish(ctxFor('second')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    const reset = Number(sim.log.requests[1]!.responseHeaders['x-rate-limit-reset']);
    expect((err as RateLimitedError).until).toBe(reset * 1000);
    expect(reset * 1000).toBeGreaterThan(clock.now());
  });

  it('treats a usage cap as a rate limit with its own message', async () => {
    sim.log.inject({
      method: 'POST',
      path: '/2/tweets',
      kind: 'respond',
      status: 429,
      body: { code: 429, message: 'UsageCapExceeded: Usage cap exceeded: Monthly product cap' },
      headers: { 'x-rate-limit-reset': String(Math.floor(clock.now() / 1000) + 3600) },
    });
    const err = await adapter.publish(ctxFor('capped')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).platformCode).toBe('usage-capped');
    expect((err as Error).message).toMatch(/usage cap/);
    expect((err as RateLimitedError).until).toBe((Math.floor(clock.now() / 1000) + 3600) * 1000);
  });

  it('retries media uploads on a 5xx but calls a 5xx on the post itself an unknown outcome', async () => {
    sim.log.inject({ method: 'POST', path: '/2/media/upload', kind: 'respond', status: 503, body: { code: 503, message: 'Service Unavailable' } });
    const img = mediaFile('c.png', fakeBytes('png', 1000), 'image', 'image/png');
    expect(await adapter.publish(ctxFor('x', [img])).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', status: 503, body: { code: 503, message: 'Service Unavailable' } });
    expect(await driveClock(clock, adapter.publish(ctxFor('y')), 5000).catch((e: unknown) => e)).toBeInstanceOf(OutcomeUnknownError);
  });

  it('signs requests with OAuth 1.0a user tokens, and a bad signature is refused as expired credentials', async () => {
    const keys = { consumerKey: 'ck-1', consumerSecret: 'cs-1', token: '1000000000000000001-tok', tokenSecret: 'ts-1' };
    sim.registerOAuth1(keys);
    const secrets = { consumer_key: keys.consumerKey, consumer_secret: keys.consumerSecret, oauth_token: keys.token, oauth_token_secret: keys.tokenSecret };
    const img = mediaFile('o.png', fakeBytes('png', 2000), 'image', 'image/png');
    const outcome = await adapter.publish(ctxFor('signed with oauth 1.0a', [img], { secrets }));
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
    expect(sim.log.requests.every((r) => r.headers.authorization === 'OAuth …')).toBe(true);

    const err = await adapter.publish(ctxFor('bad signature', [], { secrets: { ...secrets, oauth_token_secret: 'wrong' } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect(sim.log.posts).toHaveLength(1);
  });
});

describe('twitter OAuth 2.0 tokens', () => {
  it('refreshes an expiring token, stores the rotated pair before using it, and keeps the new refresh token across a crash', async () => {
    const first = sim.issueTokens('client-1');
    const ctx1 = ctxFor('after refresh', [], {
      secrets: { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'client-1' },
      tokenExpiresAt: clock.now() + 30_000,
      tokenObtainedAt: clock.now() - 7_000_000,
    });
    // The process dies right after the refresh was stored: the media upload never answers.
    sim.log.inject({ method: 'POST', path: '/2/media/upload', kind: 'respond', status: 503, body: { code: 503, message: 'Service Unavailable' } });
    const img = mediaFile('r.png', fakeBytes('png', 500), 'image', 'image/png');
    expect(await adapter.publish({ ...ctx1, media: [img] }).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    expect(calls()).toEqual(['POST /2/oauth2/token', 'POST /2/media/upload']);
    expect(ctx1.saved).toHaveLength(1);
    const stored = ctx1.saved[0]!;
    expect(stored.secrets.refresh_token).toBeDefined();
    expect(stored.secrets.refresh_token).not.toBe(first.refresh_token);
    expect(stored.tokenExpiresAt).toBe(clock.now() + 7200_000);
    expect(sim.refreshTokenUsed(first.refresh_token!)).toBe(true);

    // Restart: a new process reads the stored pair; two hours later it refreshes with the NEW token once.
    forgetRefreshes();
    await clock.advance(7200_000);
    const ctx2 = ctxFor('after restart', [], {
      secrets: { ...stored.secrets, client_id: 'client-1' },
      tokenExpiresAt: stored.tokenExpiresAt ?? null,
      tokenObtainedAt: stored.tokenObtainedAt ?? null,
    });
    await adapter.publish(ctx2);
    const refreshes = sim.log.to('POST', '/2/oauth2/token').map((r) => (r.body as { refresh_token: string }).refresh_token);
    expect(refreshes).toEqual([first.refresh_token, stored.secrets.refresh_token]);
    expect(sim.log.to('POST', '/2/oauth2/token').map((r) => r.status)).toEqual([200, 200]);
    expect(ctx2.expired).toEqual([]);
  });

  it('keeps a rotated refresh token whose storing failed and stores it on the next attempt instead of refreshing again', async () => {
    const first = sim.issueTokens('client-1');
    const secrets = { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'client-1' };
    const failing = ctxFor('stored late', [], { secrets, tokenExpiresAt: clock.now() - 1, connectionId: 'con_unsaved', failSaveTokens: true });
    const err = await adapter.publish(failing).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect((err as Error).message).toMatch(/could not be stored/);
    expect(sim.log.to('POST', '/2/tweets')).toHaveLength(0);

    const retry = ctxFor('stored late', [], { secrets, tokenExpiresAt: clock.now() - 1, connectionId: 'con_unsaved' });
    await adapter.publish(retry);
    expect(sim.log.to('POST', '/2/oauth2/token')).toHaveLength(1);
    expect(retry.saved).toHaveLength(1);
    expect(retry.saved[0]!.secrets.refresh_token).not.toBe(first.refresh_token);
    expect(retry.expired).toEqual([]);
    expect(sim.log.posts).toHaveLength(1);
  });

  it('shares one refresh between targets of the same connection running at once', async () => {
    const first = sim.issueTokens('client-1');
    const base = { secrets: { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'client-1' }, tokenExpiresAt: clock.now() - 1, connectionId: 'con_shared' };
    const [a, b] = await Promise.all([adapter.publish(ctxFor('one', [], base)), adapter.publish(ctxFor('two', [], base))]);
    expect(a.postId).not.toBe(b.postId);
    expect(sim.log.to('POST', '/2/oauth2/token')).toHaveLength(1);
  });

  it('marks the connection expired when X refuses the refresh token, but not on a transient failure', async () => {
    const first = sim.issueTokens('client-1');
    const secrets = { access_token: first.access_token, refresh_token: first.refresh_token, client_id: 'client-1' };
    sim.log.inject({ method: 'POST', path: '/2/oauth2/token', kind: 'respond', status: 503, body: 'upstream unavailable', headers: { 'content-type': 'text/plain' } });
    const transient = ctxFor('t', [], { secrets, tokenExpiresAt: clock.now() - 1 });
    expect(await adapter.publish(transient).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    expect(transient.expired).toEqual([]);

    const refused = ctxFor('r', [], { secrets: { ...secrets, refresh_token: 'xrt-never-issued' }, tokenExpiresAt: clock.now() - 1 });
    const err = await adapter.publish(refused).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect(refused.expired).toEqual([expect.stringMatching(/invalid_request: Value passed for the token was invalid/)]);
  });

  it('refreshes once and repeats the call when X answers 401 to a token it thought was fresh', async () => {
    const first = sim.issueTokens('client-1');
    const ctx = ctxFor('after a 401', [], { secrets: { access_token: 'xat-revoked', refresh_token: first.refresh_token, client_id: 'client-1' }, tokenExpiresAt: clock.now() + 3600_000 });
    await adapter.publish(ctx);
    expect(calls()).toEqual(['POST /2/tweets', 'POST /2/oauth2/token', 'POST /2/tweets']);
    expect(sim.log.requests[0]!.status).toBe(401);
    expect(sim.log.posts).toHaveLength(1);
  });
});
