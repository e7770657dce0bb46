import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

/**
 * Issue 28 item 5: after a publishing call whose outcome is unknown, the Facebook adapter
 * reads the page's feed back (GET /{page-id}/feed since shortly before the call) and
 * matches the message; absent after the settle time means not published, so the target is
 * published again instead of waiting for a person. needs_review is left for what the feed
 * cannot tell: a post without a message, a feed video (on the page only once processed).
 */

const FB = 'graph.facebook.com';
const SETTLE = 30_000;
const adapter = createFacebookAdapter({ reconcileSettleMs: SETTLE });
let s: Sim;

beforeEach(async () => {
  s = await startSim({ config: { imageProcessingMs: 0 } });
});
afterEach(async () => s.close());

/** Posts `message` on page1 directly (as another attempt or another tool would). */
async function postOnPage(message: string): Promise<string> {
  const res = await fetch(`${s.baseUrl(FB)}/v25.0/page1/feed?message=${encodeURIComponent(message)}`, { method: 'POST', headers: { authorization: 'Bearer sandbox_at_test' } });
  return ((await res.json()) as { id: string }).id;
}

const feedReads = () => s.state.requests.filter((r) => r.method === 'GET' && r.path === '/page1/feed');

describe('facebook reconcile by reading the page feed back', () => {
  it('a publishing call that made nothing: after the settle time the feed has no such post, so not_published', async () => {
    const calledAt = s.clock.now();
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'never arrived', checkpoint: { publishCalledAt: calledAt, via: 'feed' } });
    const rec = await drive(s.clock, adapter.reconcile(ctx));
    expect(rec).toEqual({ state: 'not_published', reason: `no post with this message on the page's feed since ${new Date(calledAt - 120_000).toISOString()}` });
    // Read at once, then again once the settle time had passed.
    expect(feedReads().map((r) => r.at - calledAt)).toEqual([0, SETTLE]);
    expect(feedReads()[0]!.params).toEqual({ fields: 'id,message,created_time,permalink_url', since: String(Math.floor((calledAt - 120_000) / 1000)), limit: '100' });
    // The publisher then publishes again: one post.
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'never arrived', checkpoint: ctx.checkpoint.data })));
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });

  it('a post made while the call was cut off is found and becomes the outcome, with its permalink', async () => {
    const calledAt = s.clock.now();
    const id = await postOnPage('made before the crash');
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'feed', caption: 'made before the crash', checkpoint: { publishCalledAt: calledAt, via: 'feed' } })));
    expect(rec).toEqual({ state: 'published', outcome: { postId: id, postUrl: `https://www.facebook.com/${id}` } });
    expect(feedReads()).toHaveLength(1);
  });

  it('waits out the settle time: a post Facebook finishes during the wait is found, not posted again', async () => {
    const calledAt = s.clock.now();
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'slow to appear', checkpoint: { publishCalledAt: calledAt, via: 'photos' } });
    const pending = adapter.reconcile(ctx);
    await new Promise((r) => setTimeout(r, 50));
    await s.clock.advance(10_000);
    const id = await postOnPage('slow to appear');
    const rec = await drive(s.clock, pending);
    expect(rec).toMatchObject({ state: 'published', outcome: { postId: id } });
    expect(s.state.posts).toHaveLength(1);
  });

  it('follows the feed cursor on a busy page: the post is found behind 130 newer ones', async () => {
    const calledAt = s.clock.now();
    const id = await postOnPage('busy page post');
    for (let i = 0; i < 130; i++) await postOnPage(`someone else's post ${i}`);
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'feed', caption: 'busy page post', checkpoint: { publishCalledAt: calledAt, via: 'feed' } })));
    expect(rec).toMatchObject({ state: 'published', outcome: { postId: id } });
    expect(feedReads().map((r) => r.params.after !== undefined)).toEqual([false, true]);
  });

  it('the same message posted before the attempt is not taken for it', async () => {
    await postOnPage('weekly reminder');
    await s.clock.advance(7 * 86_400_000);
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'feed', caption: 'weekly reminder', checkpoint: { publishCalledAt: s.clock.now(), via: 'feed' } })));
    expect(rec.state).toBe('not_published');
  });

  it('a lost answer during publish: absent after the settle time is retried, found is the outcome; never two posts', async () => {
    // The call fails without making anything: publish looks, finds nothing, and says try again.
    s.state.faults.push({ path: '/page1/feed', method: 'POST', error: { status: 500, error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true } } });
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'retry me' });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect((err as { kind: string }).kind).toBe('retryable');
    expect(s.state.posts).toHaveLength(0);
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'retry me', checkpoint: ctx.checkpoint.data })));
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });

  it('a single photo post is settled by its message too', async () => {
    s.state.faults.push({ path: '/page1/photos', method: 'POST', hangUpAfter: true });
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'photo caption', media: [mediaFile('image')] });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    expect(ctx.checkpoint.data).toMatchObject({ via: 'photos', postId: out.postId });
  });

  it('needs_review only where the feed cannot tell: no message, or a feed video', async () => {
    const noMessage = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'feed', caption: '', checkpoint: { publishCalledAt: s.clock.now(), via: 'photos' } })));
    expect(noMessage).toEqual({ state: 'unknown', reason: 'Facebook: the publishing call was made, and a post without a message cannot be told apart on the page' });
    const video = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'feed', caption: 'a film', checkpoint: { publishCalledAt: s.clock.now(), via: 'videos' } })));
    expect(video.state).toBe('unknown');
    expect((video as { reason: string }).reason).toMatch(/feed video/);
  });
});

describe("the simulator's page feed, as Graph answers it", () => {
  const get = async (query: string) => {
    const res = await fetch(`${s.baseUrl(FB)}/v25.0/page1/feed?${query}`, { headers: { authorization: 'Bearer sandbox_at_test' } });
    return { status: res.status, body: (await res.json()) as { data?: Record<string, unknown>[]; paging?: { cursors: { after: string }; next?: string }; error?: { message: string; code: number } } };
  };

  it('lists newest first, bounded by since/until, limited, with cursor paging and only the fields asked for', async () => {
    const t0 = s.clock.now();
    const ids: string[] = [];
    for (const m of ['one', 'two', 'three']) {
      ids.push(await postOnPage(m));
      await s.clock.advance(60_000);
    }
    const all = await get('fields=id,message');
    expect(all.body.data).toEqual([
      { id: ids[2], message: 'three' },
      { id: ids[1], message: 'two' },
      { id: ids[0], message: 'one' },
    ]);
    const since = await get(`fields=message&since=${Math.floor((t0 + 60_000) / 1000)}`);
    expect(since.body.data!.map((p) => p.message)).toEqual(['three', 'two']);
    const until = await get(`fields=message&until=${new Date(t0 + 30_000).toISOString()}`);
    expect(until.body.data!.map((p) => p.message)).toEqual(['one']);
    const first = await get('fields=message&limit=2');
    expect(first.body.data!.map((p) => p.message)).toEqual(['three', 'two']);
    expect(first.body.paging!.next).toContain('after=');
    const next = await get(`fields=message&limit=2&after=${first.body.paging!.cursors.after}`);
    expect(next.body.data!.map((p) => p.message)).toEqual(['one']);
    expect(next.body.paging!.next).toBeUndefined();
    const published = await fetch(`${s.baseUrl(FB)}/v25.0/page1/published_posts?fields=id`, { headers: { authorization: 'Bearer sandbox_at_test' } });
    expect(((await published.json()) as { data: unknown[] }).data).toHaveLength(3);
  });

  it('refuses an unknown field, a bad limit and a date it cannot read', async () => {
    expect(await get('fields=id,likes_total')).toMatchObject({ status: 400, body: { error: { code: 100, message: '(#100) Tried accessing nonexisting field (likes_total) on node type (PagePost)' } } });
    expect((await get('limit=0')).status).toBe(400);
    expect((await get('since=yesterday-ish')).body.error?.message).toMatch(/since must be a Unix timestamp/);
  });
});
