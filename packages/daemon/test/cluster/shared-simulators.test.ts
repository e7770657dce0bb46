import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordKeyFor } from '../../src/platforms/bluesky/tid';
import { createMastodonAdapter } from '../../src/platforms/mastodon/adapter';
import { createTwitterAdapter } from '../../src/platforms/twitter/adapter';
import { ManualClock } from '../../src/util/clock';
import { makeContext, type SimServer, type TestContext } from '../platforms/shared/harness';
import { useTempDirs } from '../support/temp-dirs';
import { openSimulatorPair, othersSettled, type SandboxApp, type SimulatorPair } from './support/simulator-pair';

/**
 * Several daemons over one PostgreSQL database each run their own simulators, over one
 * `sandbox` schema. What one process's simulators made must be what the others read: a
 * target whose daemon died after its simulator made the post is reconciled by another
 * daemon through that daemon's simulators (docs/scaling.md "The simulators' memory with
 * several daemons"). Two simulator processes are two stores (two connections) and two
 * sandbox apps here, each loaded before the other writes.
 */

const tempDir = useTempDirs();
const clock = new ManualClock();
let pair: SimulatorPair;
let a: SandboxApp;
let b: SandboxApp;
const servers: ServerType[] = [];

beforeAll(async () => {
  pair = await openSimulatorPair(tempDir('sp-shared-sims-'), clock);
  ({ a, b } = pair);
});
afterAll(async () => {
  for (const s of servers.splice(0)) await new Promise<void>((resolve) => s.close(() => resolve()));
  pair.close();
});

/** A sandbox app over HTTP on 127.0.0.1, as a daemon's adapters reach their own simulators. */
async function served(app: typeof a): Promise<SimServer> {
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, baseUrl: (host) => `${url}/${host}`, close: async () => undefined };
}

const TOKEN = 'sandbox_at_shared1.secret';
const json = (body: unknown) => ({ 'content-type': 'application/json', body: JSON.stringify(body) });
async function call<T = Record<string, unknown>>(app: typeof a, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: T }> {
  // B reads once what A wrote has settled (othersSettled).
  if (app === b) await othersSettled(pair.probe);
  const res = await app.request(path, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: json(body).body }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}
const postsOf = (platform: string) => pair.first.store.posts.list({ platform: platform as 'twitter' }).map((p) => ({ postId: p.postId, removed: p.removedAt ?? null }));

describe("several daemons' simulators over one PostgreSQL database", () => {
  it('X: a post made through one is in the other\'s lookup, timeline and duplicate rule; a deletion reaches it too', async () => {
    const made = await call<{ data: { id: string } }>(a, 'POST', '/api.x.com/2/tweets', { text: 'made through daemon A' });
    expect(made.status).toBe(201);
    const id = made.body.data.id;
    // The same sandbox connection is the same account through B.
    const meA = await call<{ data: { id: string } }>(a, 'GET', '/api.x.com/2/users/me');
    const meB = await call<{ data: { id: string } }>(b, 'GET', '/api.x.com/2/users/me');
    expect(meB.body.data.id).toBe(meA.body.data.id);
    const lookup = await call<{ data?: { id: string; text: string } }>(b, 'GET', `/api.x.com/2/tweets/${id}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body.data?.text).toBe('made through daemon A');
    // What the X adapter's reconciliation reads: the account's timeline since the request.
    const since = new Date(Date.UTC(2026, 11, 25, 8, 59, 0)).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const timeline = await call<{ data?: Array<{ id: string }> }>(b, 'GET', `/api.x.com/2/users/${meB.body.data.id}/tweets?start_time=${since}&max_results=100`);
    expect(timeline.body.data?.map((t) => t.id)).toEqual([id]);
    // X's duplicate rule through B knows A's post: the same text is refused, not made twice.
    expect((await call(b, 'POST', '/api.x.com/2/tweets', { text: 'made through daemon A' })).status).toBe(403);
    expect(postsOf('twitter')).toEqual([{ postId: id, removed: null }]);

    // Deleted through A: gone through B.
    expect((await call(a, 'DELETE', `/api.x.com/2/tweets/${id}`)).status).toBe(200);
    const gone = await call<{ data?: unknown; errors?: Array<{ resource_id: string; title: string }> }>(b, 'GET', `/api.x.com/2/tweets/${id}`);
    expect(gone.body.data).toBeUndefined();
    expect(gone.body.errors?.map((e) => [e.title, e.resource_id])).toEqual([['Not Found Error', id]]);
    const after = await call<{ data?: unknown[] }>(b, 'GET', `/api.x.com/2/users/${meB.body.data.id}/tweets?start_time=${since}&max_results=100`);
    expect(after.body.data ?? []).toEqual([]);
  });

  it('Mastodon: a status made through one is read through the other, and its Idempotency-Key answers the same status there', async () => {
    const made = await call<{ id: string; account: { id: string } }>(a, 'POST', '/mastodon.social/api/v1/statuses', { status: 'tooted through daemon A' }, { 'idempotency-key': 'target-1:1' });
    expect(made.status).toBe(200);
    // The adapter sends an unanswered status again with the same key, here through daemon B.
    const again = await call<{ id: string }>(b, 'POST', '/mastodon.social/api/v1/statuses', { status: 'tooted through daemon A' }, { 'idempotency-key': 'target-1:1' });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(made.body.id);
    const read = await call<{ id: string; content: string }>(b, 'GET', `/mastodon.social/api/v1/statuses/${made.body.id}`);
    expect(read.status).toBe(200);
    // What the reconciliation reads: the account's statuses.
    const list = await call<Array<{ id: string }>>(b, 'GET', `/mastodon.social/api/v1/accounts/${made.body.account.id}/statuses`);
    expect(list.body.map((s) => s.id)).toEqual([made.body.id]);
    expect(postsOf('mastodon')).toEqual([{ postId: made.body.id, removed: null }]);
  });

  it('Bluesky: a record made through one is found at its key (and by getPosts) through the other, which does not make it again', async () => {
    const session = await call<{ did: string }>(a, 'GET', '/bsky.social/xrpc/com.atproto.server.getSession');
    expect(session.status).toBe(200);
    const did = session.body.did;
    // The record key the Bluesky adapter writes a target's post at (and reconciles by).
    const rkey = recordKeyFor('target-1', 1);
    const record = { $type: 'app.bsky.feed.post', text: 'skeeted through daemon A', createdAt: new Date(Date.UTC(2026, 11, 25, 9)).toISOString() };
    const made = await call<{ uri: string }>(a, 'POST', '/bsky.social/xrpc/com.atproto.repo.createRecord', { repo: did, collection: 'app.bsky.feed.post', rkey, record });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    // B's session is the same account.
    expect((await call<{ did: string }>(b, 'GET', '/bsky.social/xrpc/com.atproto.server.getSession')).body.did).toBe(did);
    const got = await call<{ uri: string; value: { text: string } }>(b, 'GET', `/bsky.social/xrpc/com.atproto.repo.getRecord?repo=${did}&collection=app.bsky.feed.post&rkey=${rkey}`);
    expect(got.status).toBe(200);
    expect(got.body.uri).toBe(made.body.uri);
    const listed = await call<{ posts: Array<{ uri: string }> }>(b, 'GET', `/bsky.social/xrpc/app.bsky.feed.getPosts?uris=${encodeURIComponent(made.body.uri)}`);
    expect(listed.body.posts.map((r) => r.uri)).toEqual([made.body.uri]);
    // The same record key through B is taken: no second post.
    const twice = await call<{ error?: string }>(b, 'POST', '/bsky.social/xrpc/com.atproto.repo.createRecord', { repo: did, collection: 'app.bsky.feed.post', rkey, record });
    expect(twice.status).toBe(400);
    expect(postsOf('bluesky')).toEqual([{ postId: made.body.uri, removed: null }]);
  });

  it('a target posted through daemon A, which died before recording it, is reconciled by daemon B as published: not posted again', async () => {
    const [viaA, viaB] = await Promise.all([served(a), served(b)]);
    const secrets = { access_token: 'sandbox_at_shared2.secret' };
    // What daemon B's publisher does with the target A left: reconcile, and publish again only if not published.
    const recover = async (adapter: ReturnType<typeof createTwitterAdapter>, ctx: TestContext) => {
      const found = await adapter.reconcile!(ctx);
      return found.state === 'published' ? { reconciled: true, postId: found.outcome.postId } : { reconciled: false, postId: (await adapter.publish(ctx)).postId };
    };
    const sameTarget = (ctx: TestContext, from: TestContext, checkpoint: Record<string, unknown>) => {
      Object.assign(ctx.target, { id: from.target.id, attemptStartedAt: from.target.attemptStartedAt });
      Object.assign(ctx.checkpoint.data, checkpoint);
      return ctx;
    };

    const x = createTwitterAdapter({ requestTimeoutMs: 2_000, reconcileSettleMs: 0 });
    const xOnA = makeContext({ platform: 'twitter', type: 'tweet', caption: 'the target A died on (X)', secrets, clock, server: viaA });
    const tweeted = await x.publish(xOnA);
    await othersSettled(pair.probe);
    // A was SIGKILLed after its simulator made the post: what it had recorded is the request, not the id.
    const xOnB = sameTarget(makeContext({ platform: 'twitter', type: 'tweet', caption: 'the target A died on (X)', secrets, clock, server: viaB }), xOnA, { tweetRequestedAt: xOnA.checkpoint.data.tweetRequestedAt });
    expect(await recover(x, xOnB)).toEqual({ reconciled: true, postId: tweeted.postId });

    const mastodon = createMastodonAdapter({ requestTimeoutMs: 2_000, pollMs: 1_000 });
    const m = { platform: 'mastodon' as const, type: 'post' as const, caption: 'the target A died on (Mastodon)', secrets, meta: { server: 'https://mastodon.social' }, clock };
    const mOnA = makeContext({ ...m, server: viaA });
    const tooted = await mastodon.publish(mOnA);
    await othersSettled(pair.probe);
    // Within the Idempotency-Key's hour the adapter sends the status again with the same key, through B.
    const mOnB = sameTarget(makeContext({ ...m, server: viaB }), mOnA, { statusRequestedAt: mOnA.checkpoint.data.statusRequestedAt });
    expect(await recover(mastodon, mOnB)).toEqual({ reconciled: false, postId: tooted.postId });

    // One post each in the sandbox world.
    const made = pair.first.store.posts.list().filter((p) => String(p.body.text ?? p.body.status ?? '').startsWith('the target A died on'));
    expect(made.map((p) => [p.platform, p.postId])).toEqual([
      ['twitter', tweeted.postId],
      ['mastodon', tooted.postId],
    ]);
  });
});
