import type { TargetReplies, ThreadPart } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import type { RepliesContext, MediaItem } from '../../../src/platforms/adapter';
import { AuthExpiredError, PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import { createMastodonAdapter, IDEMPOTENCY_TRUST_MS, idempotencyKey } from '../../../src/platforms/mastodon/adapter';
import { createMastodonRemover } from '../../../src/platforms/mastodon/remove';
import type { MastodonSimulator } from '../../../src/platforms/mastodon/sim/simulator';
import { driveClock, fakeBytes, makeContext, mediaFile, type RecordingClock, type SimServer } from '../shared/harness';
import { useMastodonSimulator } from './use-mastodon-simulator';

let clock: RecordingClock;
let sim: MastodonSimulator;
let server: SimServer;
// Every request the adapter sent and every answer the simulator gave must agree with Mastodon's OpenAPI description.
useMastodonSimulator((w) => ({ clock, sim, server } = w), { openApi: true });

const adapter = createMastodonAdapter({ requestTimeoutMs: 2_000, pollMs: 1_000 });

function ctxFor(caption: string, media: MediaItem[] = [], options: Record<string, unknown> = {}, checkpoint: Record<string, unknown> = {}) {
  return makeContext({ platform: 'mastodon', type: 'post', caption, media, options, checkpoint, secrets: { access_token: 'sandbox-mastodon-token' }, meta: { server: 'https://mastodon.social' }, clock, server });
}

const calls = () => sim.log.requests.map((r) => `${r.method} ${r.path.replace(/\d{10,}/g, ':id')} ${r.status}`);
const statusRequests = () => sim.log.requests.filter((r) => r.method === 'POST' && r.path === '/api/v1/statuses');

describe('mastodon adapter against the simulator', () => {
  it('posts a status with its options and an Idempotency-Key derived from the target, and returns its id and URL', async () => {
    const ctx = ctxFor('Hello Mastodon #socialpub', [], { visibility: 'unlisted', spoiler_text: 'Greetings', language: 'en', sensitive: true });
    const outcome = await adapter.publish(ctx);
    expect(calls()).toEqual(['POST /api/v1/statuses 200']);
    const req = statusRequests()[0]!;
    expect(req.body).toEqual({ status: 'Hello Mastodon #socialpub', visibility: 'unlisted', language: 'en', spoiler_text: 'Greetings', sensitive: true });
    expect(req.responseHeaders['x-ratelimit-remaining']).toBe('299');
    const [post] = sim.log.posts;
    expect(outcome).toEqual({ postId: post!.postId, postUrl: `https://mastodon.social/@sandbox/${post!.postId}` });
    expect(ctx.checkpointHistory.map((p) => Object.keys(p).join(','))).toEqual(['statusRequestedAt', 'statusId,statusUrl']);
    expect(req.headers['idempotency-key']).toBe(idempotencyKey(ctx.target.id, 'post'));
    expect(req.headers['idempotency-key']).toMatch(/^socialpub-[0-9a-f]{40}$/);
  });

  it('sends a status again with the same Idempotency-Key after a lost answer, and the server answers with the same status', async () => {
    const ctx = ctxFor('Posted once, whatever happens');
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'reset-after' });
    const first = await adapter.publish(ctx).catch((e: unknown) => e);
    // A lost answer is retryable: the key makes sending again safe.
    expect(first).toBeInstanceOf(RetryableError);
    expect(sim.log.posts).toHaveLength(1);
    const rec = await adapter.reconcile(ctx);
    expect(rec.state).toBe('not_published');
    const outcome = await adapter.publish(ctx);
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
    expect(sim.log.posts).toHaveLength(1);
    expect(statusRequests()).toHaveLength(2);
  });

  it('looks the status up instead once the key may be forgotten (over 50 minutes), and finds it', async () => {
    const ctx = ctxFor('An old request & its <answer>');
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'reset-after' });
    await adapter.publish(ctx).catch(() => undefined);
    await clock.advance(IDEMPOTENCY_TRUST_MS + 60_000);
    const rec = await adapter.reconcile(ctx);
    expect(rec).toEqual({ state: 'published', outcome: { postId: sim.log.posts[0]!.postId, postUrl: sim.log.posts[0]!.postUrl } });
    expect(calls().slice(-2)).toEqual(['GET /api/v1/accounts/verify_credentials 200', 'GET /api/v1/accounts/:id/statuses 200']);
    expect(statusRequests()).toHaveLength(1);
  });

  it('uploads images with alt text and focal point, waits for a video to be processed, and attaches them', async () => {
    const image = mediaFile('a.png', fakeBytes('png', 30_000), 'image', 'image/png');
    const video = mediaFile('v.mp4', fakeBytes('mp4', 60_000), 'video', 'video/mp4');
    const ctx = ctxFor('Two files', [image, video], { alt_text: ['A chart', null], focus: ['0.5,-0.25', null] });
    const outcome = await driveClock(clock, adapter.publish(ctx));
    expect(calls()).toEqual(['POST /api/v2/media 200', 'POST /api/v2/media 202', 'GET /api/v1/media/:id 206', 'GET /api/v1/media/:id 206', 'GET /api/v1/media/:id 206', 'GET /api/v1/media/:id 200', 'POST /api/v1/statuses 200']);
    expect(sim.log.requests[0]!.body).toEqual({ file: '<30000 bytes>', description: 'A chart', focus: '0.5,-0.25' });
    expect(sim.log.requests[1]!.body).toEqual({ file: '<60000 bytes>' });
    const ids = sim.log.requests.slice(0, 2).map((r) => (r.responseBody as { id: string }).id);
    expect(statusRequests()[0]!.body).toEqual({ status: 'Two files', media_ids: ids });
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
    // Each media id is checkpointed as it is made, and again once processed.
    expect((ctx.checkpoint.data.media as Record<string, { id: string; ready: boolean }>)['1']).toMatchObject({ id: ids[1], ready: true });
  });

  it('sends a poll', async () => {
    await adapter.publish(ctxFor('Tea or coffee?', [], { poll: { options: ['Tea', 'Coffee'], expires_in: 86_400, multiple: true } }));
    expect(statusRequests()[0]!.body).toEqual({ status: 'Tea or coffee?', poll: { options: ['Tea', 'Coffee'], expires_in: 86_400, multiple: true } });
    expect(sim.log.posts[0]!.body.poll).toEqual({ options: ['Tea', 'Coffee'] });
  });

  it("maps Mastodon's answers: a 422 is permanent with the server's words, 429 waits for X-RateLimit-Reset, 401 means reconnect", async () => {
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'respond', status: 422, body: { error: 'Validation failed: Text character limit of 500 exceeded' } });
    const bad = await adapter.publish(ctxFor('x')).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(PermanentError);
    expect((bad as Error).message).toBe('Mastodon status failed (422): Validation failed: Text character limit of 500 exceeded');
    const reset = new Date(clock.now() + 120_000).toISOString();
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'respond', status: 429, body: { error: 'Too many requests' }, headers: { 'X-RateLimit-Limit': '300', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': reset } });
    const limited = await adapter.publish(ctxFor('y')).catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).until).toBe(Date.parse(reset));
    const ctx = makeContext({ platform: 'mastodon', type: 'post', caption: 'z', secrets: { access_token: 'not-a-token' }, meta: {}, clock, server });
    expect(await adapter.publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(AuthExpiredError);
  });

  it('takes a status down with DELETE /api/v1/statuses/:id; a second time it is already gone', async () => {
    const ctx = ctxFor('Here briefly');
    const { postId } = await adapter.publish(ctx);
    const remover = createMastodonRemover();
    expect(remover.remoteIds({ type: 'post', postId, checkpoint: {}, replies: {} })).toEqual([postId]);
    expect(await remover.deletePost(ctx, postId)).toBe('deleted');
    expect(sim.log.posts[0]!.removedAt).toBe(clock.now());
    expect(await remover.postExists(ctx, postId)).toBe(false);
    expect(await remover.deletePost(ctx, postId)).toBe('already_gone');
  });
});

describe('a mastodon thread', () => {
  function chainCtx(thread: ThreadPart[], firstComment: string | null, options: Record<string, unknown> = {}) {
    const ctx = ctxFor('Part 1', [], options);
    const done: TargetReplies = {};
    const fu: RepliesContext = {
      thread,
      threadMedia: thread.map((): MediaItem[] => []),
      firstComment,
      data: done,
      async save(patch, checkpoint = {}) {
        await ctx.checkpoint.save(checkpoint);
        Object.assign(done, patch);
      },
    };
    ctx.replies = fu;
    return { ctx, done };
  }

  it('posts each part as a reply to the one before with its own key, keeping visibility and language, then the comment', async () => {
    const { ctx, done } = chainCtx([{ caption: 'Part 2' }, { caption: 'Part 3' }], 'Thoughts?', { visibility: 'unlisted', language: 'de', spoiler_text: 'Long thread' });
    await adapter.publish(ctx);
    const ids = sim.log.posts.map((p) => p.postId);
    expect(statusRequests().map((r) => r.body)).toEqual([
      { status: 'Part 1', visibility: 'unlisted', language: 'de', spoiler_text: 'Long thread' },
      { status: 'Part 2', in_reply_to_id: ids[0], visibility: 'unlisted', language: 'de' },
      { status: 'Part 3', in_reply_to_id: ids[1], visibility: 'unlisted', language: 'de' },
      { status: 'Thoughts?', in_reply_to_id: ids[0], visibility: 'unlisted', language: 'de' },
    ]);
    expect(done.thread!.map((p) => p.post_id)).toEqual(ids.slice(0, 3));
    expect(done.comment).toEqual({ id: ids[3], url: `https://mastodon.social/@sandbox/${ids[3]}` });
    // Each status its own key, derived from the target: the same on every attempt.
    expect(statusRequests().map((r) => r.headers['idempotency-key'])).toEqual(['post', 'part:2', 'part:3', 'comment'].map((w) => idempotencyKey(ctx.target.id, w)));
  });

  it('resends a part whose answer was lost with the same key: the server answers the part it made, nothing is doubled', async () => {
    const { ctx, done } = chainCtx([{ caption: 'Part 2' }, { caption: 'Part 3' }], null);
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'reset-after', skip: 1 });
    expect(await adapter.publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    expect(sim.log.posts).toHaveLength(2);
    // The part is pending: resumable, since the key dedupes it.
    expect(await adapter.reconcile(ctx)).toMatchObject({ state: 'not_published' });
    const firstSent = (ctx.checkpoint.data.repliesSentAt as Record<string, number>)['part:2'];
    await clock.advance(60_000);
    await adapter.publish(ctx);
    expect(sim.log.posts.map((p) => p.body.status)).toEqual(['Part 1', 'Part 2', 'Part 3']);
    expect(done.thread!.map((p) => p.part)).toEqual([1, 2, 3]);
    // The resent part kept the time its key first went out (the server's hour runs from there).
    expect((ctx.checkpoint.data.repliesSentAt as Record<string, number>)['part:2']).toBe(firstSent);
  });

  it('looks a part up under the part before once its key may be forgotten, and finds it instead of posting it again', async () => {
    const { ctx, done } = chainCtx([{ caption: 'Part 2 with @ana@elsewhere.example' }], null);
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'reset-after', skip: 1 });
    expect(await adapter.publish(ctx).catch((e: unknown) => e)).toBeInstanceOf(RetryableError);
    await clock.advance(IDEMPOTENCY_TRUST_MS + 60_000);
    await adapter.publish(ctx);
    expect(sim.log.posts.map((p) => p.body.status)).toEqual(['Part 1', 'Part 2 with @ana@elsewhere.example']);
    // Found under part 1 (a remote mention compared by its local part, as Mastodon renders it): not sent again.
    expect(calls().slice(-2)).toEqual(['GET /api/v1/statuses/:id/context 200', 'GET /api/v1/accounts/verify_credentials 200']);
    expect(statusRequests()).toHaveLength(2);
    expect(done.thread!.map((p) => p.post_id)).toEqual(sim.log.posts.map((p) => p.postId));
  });

  it('asks again at once, with the same key, for a first comment whose answer was lost: one comment, recorded', async () => {
    const { ctx, done } = chainCtx([], 'One comment');
    sim.log.inject({ method: 'POST', path: '/api/v1/statuses', kind: 'reset-after', skip: 1 });
    await driveClock(clock, adapter.publish(ctx));
    expect(sim.log.posts.map((p) => p.body.status)).toEqual(['Part 1', 'One comment']);
    expect(statusRequests()).toHaveLength(3);
    expect(done.comment).toEqual({ id: sim.log.posts[1]!.postId, url: sim.log.posts[1]!.postUrl });
  });

  it('resends a first comment left pending by a crash with the same key, instead of reporting it interrupted', async () => {
    const { ctx, done } = chainCtx([], 'After the crash');
    await adapter.publish(ctx);
    const posted = sim.log.posts[1]!;
    // As a crash leaves it: the comment request checkpointed, its answer never recorded.
    delete done.comment;
    await ctx.checkpoint.save({ commentRequest: clock.now() });
    expect(await adapter.reconcile(ctx)).toMatchObject({ state: 'not_published', reason: expect.stringMatching(/sent again/) });
    await adapter.publish(ctx);
    expect(sim.log.posts.map((p) => p.body.status)).toEqual(['Part 1', 'After the crash']);
    expect(done.comment).toEqual({ id: posted.postId, url: posted.postUrl });
  });
});

describe('a live mastodon connection', () => {
  it('refuses to call a server whose name resolves to a private address, for good, sending nothing', async () => {
    const ctx = makeContext({ platform: 'mastodon', type: 'post', caption: 'x', secrets: { access_token: 'tok' }, meta: { server: 'https://127.0.0.1' }, clock, server });
    ctx.credentials.mode = 'live';
    const err = await adapter.publish(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('private-address');
    expect((err as Error).message).toMatch(/^status: the Mastodon server's name now resolves to an address socialpub does not reach \(.*loopback/);
    expect(sim.log.requests).toEqual([]);
  });
});
