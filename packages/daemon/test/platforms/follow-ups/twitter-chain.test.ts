import type { TargetReplies, ThreadPart } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import type { RepliesContext, MediaItem } from '../../../src/platforms/adapter';
import { OutcomeUnknownError, PermanentError, RateLimitedError } from '../../../src/platforms/errors';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import type { TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import type { RecordingClock } from '../shared/harness';
import { makeContext, type SimServer, type TestContext } from '../shared/harness';
import { useXSimulator } from '../twitter/use-x-simulator';

let clock: RecordingClock;
let sim: TwitterSimulator;
let server: SimServer;
// Every request the adapter sent and every answer the simulator gave must agree with X's OpenAPI description.
useXSimulator((w) => ({ clock, sim, server } = w), { openApi: true });

const adapter = createTwitterAdapter({ requestTimeoutMs: 2_000, reconcileSettleMs: 0 });

/** A context whose follow-ups live in memory, saved as the store saves them (checkpoint and follow-ups together). */
function chainCtx(thread: ThreadPart[], firstComment: string | null, state: { checkpoint?: Record<string, unknown>; done?: TargetReplies } = {}) {
  const ctx = makeContext({
    platform: 'twitter',
    type: 'tweet',
    caption: 'Part 1',
    secrets: { access_token: 'sandbox-x-token' },
    meta: { username: 'sandbox_x' },
    accountId: sim.defaultUser.id,
    clock,
    server,
    checkpoint: state.checkpoint ?? {},
  });
  const done: TargetReplies = { ...state.done };
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

const tweets = () => sim.log.requests.filter((r) => r.method === 'POST' && r.path === '/2/tweets');
const parts = (n: number) => Array.from({ length: n }, (_, i) => ({ caption: `Part ${i + 2}` }));
/** The checkpoint as json_patch leaves it (a null deletes the key). */
const live = (ctx: TestContext) => Object.fromEntries(Object.entries(ctx.checkpoint.data).filter(([, v]) => v !== null));

describe('an X thread', () => {
  it('posts each part as a reply to the one before, checkpointing the request before and the id after each', async () => {
    const { ctx, done } = chainCtx(parts(3), null);
    const outcome = await adapter.publish(ctx);
    const bodies = tweets().map((r) => r.body as { text: string; reply?: { in_reply_to_tweet_id: string } });
    const ids = sim.log.posts.map((p) => p.postId);
    expect(bodies).toEqual([
      { text: 'Part 1' },
      { text: 'Part 2', reply: { in_reply_to_tweet_id: ids[0] } },
      { text: 'Part 3', reply: { in_reply_to_tweet_id: ids[1] } },
      { text: 'Part 4', reply: { in_reply_to_tweet_id: ids[2] } },
    ]);
    expect(outcome.postId).toBe(ids[0]);
    expect(done.thread).toEqual(ids.map((id, i) => ({ part: i + 1, post_id: id, post_url: `https://x.com/sandbox_x/status/${id}` })));
    // Part 2's request is on disk before it is sent, and cleared with its id.
    const keys = ctx.checkpointHistory.map((p) => Object.entries(p).map(([k, v]) => `${k}${v === null ? '=null' : ''}`).join(','));
    expect(keys).toEqual(['tweetRequestedAt', 'tweetId', '', 'chainRequest', 'chainRequest=null', 'chainRequest', 'chainRequest=null', 'chainRequest', 'chainRequest=null']);
  });

  it('a part X refuses fails the target with how far the chain got; nothing is left pending', async () => {
    const { ctx, done } = chainCtx(parts(3), 'Comments welcome');
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', skip: 2, status: 400, body: { code: 400, message: 'Your Tweet text is too long.' } });
    const err = await adapter.publish(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toMatch(/^thread part 3 of 4: .*\(parts 1-2 are out\)$/);
    expect(done.thread!.map((p) => p.part)).toEqual([1, 2]);
    expect(live(ctx).chainRequest).toBeUndefined();
    // The comment comes after the chain: a broken chain posts none.
    expect(done.comment).toBeUndefined();
    expect(sim.log.posts).toHaveLength(2);
  });

  it('a part refused for now (rate limit) is retried by the next attempt from that part, never reposting the earlier ones', async () => {
    const { ctx, done } = chainCtx(parts(2), null);
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', skip: 1, status: 429, body: { code: 429, message: 'Too Many Requests' }, headers: { 'x-rate-limit-reset': String(Math.floor(clock.now() / 1000) + 60) } });
    await expect(adapter.publish(ctx)).rejects.toBeInstanceOf(RateLimitedError);
    expect(done.thread!.map((p) => p.part)).toEqual([1]);
    // The next attempt: same checkpoint and follow-ups.
    const again = chainCtx(parts(2), null, { checkpoint: live(ctx), done });
    await adapter.publish(again.ctx);
    expect(sim.log.posts.map((p) => p.body.text)).toEqual(['Part 1', 'Part 2', 'Part 3']);
    expect(again.done.thread!.map((p) => p.part)).toEqual([1, 2, 3]);
  });

  it('a part sent without an answer is outcome unknown, and reconcile says so instead of posting it again', async () => {
    const { ctx, done } = chainCtx(parts(2), null);
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'reset-after', skip: 1 });
    await expect(adapter.publish(ctx)).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(live(ctx).chainRequest).toMatchObject({ part: 2 });
    const after = chainCtx(parts(2), null, { checkpoint: live(ctx), done });
    const r = await adapter.reconcile(after.ctx);
    expect(r).toEqual({ state: 'unknown', reason: 'thread part 2 of 3 was being posted when the attempt stopped; it may or may not exist (parts 1-1 are out)' });
    await expect(adapter.publish(after.ctx)).rejects.toBeInstanceOf(OutcomeUnknownError);
    expect(sim.log.posts).toHaveLength(2);
  });

  it('reconcile after a stop between parts says not published, and publishing again resumes with the next part', async () => {
    const first = chainCtx(parts(3), null);
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', skip: 2, status: 429, body: { code: 429, message: 'Too Many Requests' }, headers: { 'x-rate-limit-reset': String(Math.floor(clock.now() / 1000) + 60) } });
    await expect(adapter.publish(first.ctx)).rejects.toBeInstanceOf(RateLimitedError);
    const resumed = chainCtx(parts(3), null, { checkpoint: live(first.ctx), done: first.done });
    expect(await adapter.reconcile(resumed.ctx)).toEqual({ state: 'not_published', reason: 'the thread stopped after part 2 of 4; publishing resumes with part 3' });
    await adapter.publish(resumed.ctx);
    expect(sim.log.posts.map((p) => p.body.text)).toEqual(['Part 1', 'Part 2', 'Part 3', 'Part 4']);
    expect(await adapter.reconcile(resumed.ctx)).toMatchObject({ state: 'published' });
  });

  it('a first comment X refuses leaves the post published with the error; one left unanswered by a stop is reported, not posted again', async () => {
    const a = chainCtx([], 'First!');
    sim.log.inject({ method: 'POST', path: '/2/tweets', kind: 'respond', skip: 1, status: 403, body: { code: 403, message: 'You are not allowed to create a Tweet with duplicate content.' } });
    const outcome = await adapter.publish(a.ctx);
    expect(outcome.postId).toBe(sim.log.posts[0]!.postId);
    expect(a.done.comment).toEqual({ error: expect.stringMatching(/duplicate content/) });
    expect(live(a.ctx).commentRequest).toBeUndefined();

    const b = chainCtx([], 'Second!', { checkpoint: { tweetId: outcome.postId, commentRequest: clock.now() } });
    expect(await adapter.reconcile(b.ctx)).toMatchObject({ state: 'published', outcome: { postId: outcome.postId } });
    expect(b.done.comment).toEqual({ error: expect.stringMatching(/^the attempt stopped while the comment was being posted/) });
    expect(sim.log.posts).toHaveLength(1);
  });
});
