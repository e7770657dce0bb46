import { describe, expect, it } from 'vitest';
import { createTwitterAdapter } from '../../../src/platforms/twitter/adapter';
import { PermanentError } from '../../../src/platforms/errors';
import { X_HOST, type TwitterSimulator } from '../../../src/platforms/twitter/sim/simulator';
import type { RecordingClock } from '../shared/harness';
import { fakeBytes, makeContext, mediaFile, type SimServer } from '../shared/harness';
import { checkExchange, checkTraffic } from './openapi-check';
import { useXSimulator } from './use-x-simulator';

let clock: RecordingClock;
let sim: TwitterSimulator;
let server: SimServer;
useXSimulator((w) => ({ clock, sim, server } = w));

const adapter = createTwitterAdapter({ requestTimeoutMs: 2_000 });

const ctxFor = (caption: string, options: Record<string, unknown>) =>
  makeContext({ platform: 'twitter', type: 'tweet', caption, options, secrets: { access_token: 'sandbox-x-token' }, meta: { username: 'sandbox_x' }, accountId: sim.defaultUser.id, clock, server });

const tweetRequests = () => sim.log.requests.filter((r) => r.method === 'POST' && r.path === '/2/tweets');

/** A raw POST /2/tweets to the simulator, as any client could send it. */
async function rawTweet(body: unknown): Promise<{ status: number; body: { detail?: string; parameter?: string; data?: { id: string } } }> {
  const res = await fetch(`${server.baseUrl(X_HOST)}/2/tweets`, { method: 'POST', headers: { host: X_HOST, authorization: 'Bearer sandbox-x-token', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as never };
}

describe('X options reach POST /2/tweets as X documents them (and as its OpenAPI allows)', () => {
  it('sends poll and reply_settings exactly; the simulator stores them and X lookup shows them', async () => {
    const poll = { options: ['Tabs', 'Spaces', '🙂 either'], duration_minutes: 1440 };
    const outcome = await adapter.publish(ctxFor('Tabs or spaces?', { poll, reply_settings: 'following' }));

    const [req] = tweetRequests();
    expect(req!.body).toEqual({ text: 'Tabs or spaces?', reply_settings: 'following', poll });
    expect(req!.status).toBe(201);
    const stored = sim.posts().find((p) => p.id === outcome.postId)!;
    expect(stored.poll).toMatchObject({ options: poll.options, durationMinutes: 1440, endsAt: clock.now() + 1440 * 60_000 });
    expect(stored.replySettings).toBe('following');
    expect(sim.log.posts[0]!.body).toEqual({ text: 'Tabs or spaces?', media: [], poll, reply_settings: 'following' });

    const res = await fetch(`${server.baseUrl(X_HOST)}/2/tweets/${outcome.postId}?post.fields=reply_settings,attachments&expansions=attachments.poll_ids`, { headers: { host: X_HOST, authorization: 'Bearer sandbox-x-token' } });
    const look = (await res.json()) as { data: { reply_settings: string; attachments: { poll_ids: string[] } }; includes: { polls: { id: string; options: { label: string }[]; voting_status: string }[] } };
    expect(look.data.reply_settings).toBe('following');
    expect(look.includes.polls[0]!.id).toBe(look.data.attachments.poll_ids[0]);
    expect(look.includes.polls[0]!.options.map((o) => o.label)).toEqual(poll.options);
    expect(look.includes.polls[0]!.voting_status).toBe('open');
    expect(checkTraffic(sim.log.requests)).toEqual([]);
  });

  it('sends quote_tweet_id of an existing post; everyone is left out (X does not accept it as input)', async () => {
    const first = await adapter.publish(ctxFor('the original', {}));
    const quote = await adapter.publish(ctxFor('quoting it', { quote_tweet_id: first.postId, reply_settings: 'everyone' }));
    expect(tweetRequests()[1]!.body).toEqual({ text: 'quoting it', quote_tweet_id: first.postId });
    expect(sim.posts().find((p) => p.id === quote.postId)!.quoteTweetId).toBe(first.postId);
    expect(checkTraffic(sim.log.requests)).toEqual([]);
  });

  it('a quote of an unknown post fails permanently with X\'s refusal, and nothing is posted', async () => {
    const err = await adapter.publish(ctxFor('quoting nothing', { quote_tweet_id: '1234567890' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toMatch(/quoted post \[1234567890\] does not exist/);
    expect(sim.posts()).toEqual([]);
    expect(checkTraffic(sim.log.requests)).toEqual([]);
  });

  it('a poll with media and a poll with a quote are refused by the simulator', async () => {
    const img = mediaFile('a.png', fakeBytes('png', 10_000), 'image', 'image/png');
    const ctx = ctxFor('poll and picture', { poll: { options: ['a', 'b'], duration_minutes: 5 } });
    ctx.media.push(img);
    await expect(adapter.publish(ctx)).rejects.toThrow(/poll cannot also attach media/);
    const original = await rawTweet({ text: 'original' });
    const both = await rawTweet({ text: 'both', poll: { options: ['a', 'b'], duration_minutes: 5 }, quote_tweet_id: original.body.data!.id });
    expect([both.status, both.body.parameter]).toEqual([400, 'poll']);
    expect(sim.posts().map((p) => p.text)).toEqual(['original']);
  });

  it.each([
    [{ poll: { options: ['one'], duration_minutes: 5 } }, 'poll.options'],
    [{ poll: { options: ['a', 'b', 'c', 'd', 'e'], duration_minutes: 5 } }, 'poll.options'],
    [{ poll: { options: ['x'.repeat(26), 'b'], duration_minutes: 5 } }, 'poll.options'],
    [{ poll: { options: ['a', 'b'], duration_minutes: 4 } }, 'poll.duration_minutes'],
    [{ poll: { options: ['a', 'b'], duration_minutes: 10_081 } }, 'poll.duration_minutes'],
    [{ poll: { options: ['a', 'b'] } }, 'poll.duration_minutes'],
    [{ reply_settings: 'everyone' }, 'reply_settings'],
    [{ quote_tweet_id: 'abc' }, 'quote_tweet_id'],
  ])('the simulator refuses %j as X does (and X\'s OpenAPI agrees the request is invalid)', async (extra, parameter) => {
    const res = await rawTweet({ text: `bad ${parameter}`, ...extra });
    expect(res.status).toBe(400);
    expect(res.body.parameter).toBe(parameter);
    expect(sim.posts()).toEqual([]);
    const [exchange] = sim.log.requests;
    expect(checkExchange(exchange!).some((p) => p.includes('request body'))).toBe(true);
  });

  it('the poll\'s reply_settings is accepted for compatibility and dropped', async () => {
    const res = await rawTweet({ text: 'compat', poll: { options: ['a', 'b'], duration_minutes: 5, reply_settings: 'following' } });
    expect(res.status).toBe(201);
    expect(sim.posts()[0]!.replySettings).toBeNull();
    expect(checkTraffic(sim.log.requests)).toEqual([]);
  });
});
