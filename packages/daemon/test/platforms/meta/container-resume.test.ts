import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PlatformAdapter } from '../../../src/platforms/adapter';
import { OutcomeUnknownError, RetryableError } from '../../../src/platforms/errors';
import { createInstagramAdapter } from '../../../src/platforms/instagram/adapter';
import { createThreadsAdapter } from '../../../src/platforms/threads/adapter';
import { context, drive, mediaFile, startSim, type Sim } from './harness';

let s: Sim;
beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

interface Flavour {
  platform: 'threads' | 'instagram';
  adapter: PlatformAdapter;
  account: string;
  publishEdge: string;
  statusField: string;
  type: 'post' | 'feed';
}

const FLAVOURS: Flavour[] = [
  { platform: 'threads', adapter: createThreadsAdapter(), account: 'threads-acct', publishEdge: 'threads_publish', statusField: 'status', type: 'post' },
  { platform: 'instagram', adapter: createInstagramAdapter(), account: 'instagram-acct', publishEdge: 'media_publish', statusField: 'status_code', type: 'feed' },
];

const ctxOf = (f: Flavour, checkpoint?: Record<string, unknown>) =>
  context(s, { platform: f.platform, type: f.type, caption: 'once only', media: [mediaFile('image')], ...(checkpoint ? { checkpoint } : {}) });

/** Runs a full publish, then returns the checkpoint as a crash right after the publish call would have left it. */
async function publishedThenCrashed(f: Flavour) {
  const first = ctxOf(f);
  const out = await drive(s.clock, f.adapter.publish(first));
  const unit = (first.checkpoint.data.units as Record<string, Record<string, unknown>>).post!;
  const cid = String(unit.containerId);
  // What a crash between the publish call and the answer leaves: the call made, no media id.
  const checkpoint = { units: { post: { key: 'post', kind: 'post', caption: 'once only', containerId: cid, publishCalledAt: unit.publishCalledAt } } };
  return { out, cid, checkpoint };
}

const publishes = (f: Flavour) => s.state.requests.filter((r) => r.path === `/${f.account}/${f.publishEdge}` && r.method === 'POST');

describe.each(FLAVOURS)('$platform container resume after the publish call', (f) => {
  it('ends published with the post found, not posted again, when a stale read says FINISHED and the platform refuses the second publish', async () => {
    const { out, cid, checkpoint } = await publishedThenCrashed(f);
    // The status read lags behind: FINISHED though the container was published.
    s.state.faults.push({ method: 'GET', path: `/${cid}`, times: 10, answer: { id: cid, [f.statusField]: 'FINISHED' } });
    const resumed = await drive(s.clock, f.adapter.publish(ctxOf(f, checkpoint)));
    expect(resumed.postId).toBe(out.postId);
    expect(s.state.posts).toHaveLength(1);
    // The second publish call was made and refused by the simulator ("already been published").
    expect(publishes(f).map((r) => r.status)).toEqual([200, 400]);
  });

  it('reconciles a published container as published', async () => {
    const { out, checkpoint } = await publishedThenCrashed(f);
    const result = await drive(s.clock, f.adapter.reconcile(ctxOf(f, checkpoint)));
    expect(result).toEqual({ state: 'published', outcome: { postId: out.postId, postUrl: expect.any(String) } });
  });

  it('never says not_published for a container without a status after the publish call: keeps looking, and a resumed publish ends outcome-unknown at once', async () => {
    const { cid, checkpoint } = await publishedThenCrashed(f);
    s.state.faults.push({ method: 'GET', path: `/${cid}`, times: 100, answer: { id: cid } });
    const reconciled = await drive(s.clock, f.adapter.reconcile(ctxOf(f, checkpoint)).catch((e: unknown) => e));
    expect(reconciled).toBeInstanceOf(RetryableError);
    const before = s.clock.now();
    const resumed = await drive(s.clock, f.adapter.publish(ctxOf(f, checkpoint)).catch((e: unknown) => e));
    expect(resumed).toBeInstanceOf(OutcomeUnknownError);
    // Bounded: no polling cycles (the probe saw 10-minute ones, forever).
    expect(s.clock.now() - before).toBeLessThan(60_000);
    expect(s.state.posts).toHaveLength(1);
    expect(publishes(f)).toHaveLength(1);
  });

  it('replaces a container that lost its status before any publish call, at once, and publishes once', async () => {
    const ctx = ctxOf(f);
    s.state.faults.push({ method: 'GET', path: /^\/\d+$/, times: 1, answer: { id: 'lost' } });
    const before = s.clock.now();
    const err = await drive(s.clock, f.adapter.publish(ctx).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(RetryableError);
    expect(s.clock.now() - before).toBeLessThan(60_000);
    expect((ctx.checkpoint.data.units as Record<string, Record<string, unknown>>).post!.containerId).toBeUndefined();
    const out = await drive(s.clock, f.adapter.publish(ctxOf(f, ctx.checkpoint.data)));
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });

  it('reconciles FINISHED after the publish call as not published (the platform refuses a second publish, so resuming is safe), and the resumed publish posts once', async () => {
    // The publish call fails with a transient 500 the platform did not act on: the container stays FINISHED.
    s.state.faults.push({ path: `/${f.account}/${f.publishEdge}`, error: { status: 500, error: { message: 'An unknown error occurred', code: 1, is_transient: true } } });
    const ctx = ctxOf(f);
    const err = await drive(s.clock, f.adapter.publish(ctx).catch((e: unknown) => e));
    expect(err).toBeInstanceOf(RetryableError);
    const unit = (ctx.checkpoint.data.units as Record<string, Record<string, unknown>>).post!;
    expect(unit.publishCalledAt).toBeTypeOf('number');
    const reconciled = await drive(s.clock, f.adapter.reconcile(ctxOf(f, ctx.checkpoint.data)));
    expect(reconciled.state).toBe('not_published');
    const out = await drive(s.clock, f.adapter.publish(ctxOf(f, ctx.checkpoint.data)));
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });
});
