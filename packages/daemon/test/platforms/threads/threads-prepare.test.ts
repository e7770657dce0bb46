import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadsAdapter } from '../../../src/platforms/threads/adapter';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const TH = 'graph.threads.net';
const adapter = createThreadsAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
  // A text container with nothing to process is FINISHED at once (as in the sandbox).
  s.state.config.imageProcessingMs = 0;
});
afterEach(async () => s.close());

type PostUnit = { containerId?: string; publishCalledAt?: number; mediaId?: string; prepared?: { at: number; params: string }; caption?: string };
const unitOf = (data: Record<string, unknown>) => (data.units as { post: PostUnit }).post;

/** prepare() as the publisher's preparer runs it, then the checkpoint it left. */
async function prepare(caption: string, options: Record<string, unknown> = {}) {
  const ctx = context(s, { platform: 'threads', type: 'post', caption, options });
  await drive(s.clock, adapter.prepare!(ctx));
  return ctx.checkpoint.data;
}

describe('a Threads text container made ahead of the due time', () => {
  it('is made without publishing anything, then published at the due time with threads_publish alone', async () => {
    const made = await prepare('made ahead', { reply_control: 'mentioned_only' });
    expect(s.sequence()).toEqual([`POST ${TH} /threads-acct/threads`]);
    expect(s.state.posts).toHaveLength(0);
    expect(unitOf(made)).toEqual({ key: 'post', kind: 'post', caption: 'made ahead', containerId: expect.any(String), prepared: { at: s.clock.now(), params: expect.stringContaining('made ahead') } });

    await s.clock.advance(60_000);
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'made ahead', options: { reply_control: 'mentioned_only' }, checkpoint: made });
    const out = await drive(s.clock, adapter.publish(ctx));
    // At the due time: the publish call and the permalink, no container and no status read.
    expect(s.sequence().slice(1)).toEqual([`POST ${TH} /threads-acct/threads_publish`, `GET ${TH} /${out.postId}`]);
    expect(s.state.posts.map((p) => [p.postId, (p.body as { text: string }).text])).toEqual([[out.postId, 'made ahead']]);
    // One write before the publish call: the mark that it is being made, the preparation taken up.
    const first = unitOf(ctx.checkpoints[0]!);
    expect(first).toMatchObject({ containerId: unitOf(made).containerId, publishCalledAt: s.clock.now() });
    expect(first.prepared).toBeUndefined();
  });

  it('is dropped when the post was edited since, and a container with the new text is published', async () => {
    const made = await prepare('the old text');
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'the new text', checkpoint: made });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.requests('/threads-acct/threads').map((r) => r.params.text)).toEqual(['the old text', 'the new text']);
    expect(s.state.posts.map((p) => [p.postId, (p.body as { text: string }).text])).toEqual([[out.postId, 'the new text']]);
    expect(unitOf(ctx.checkpoint.data)).toMatchObject({ caption: 'the new text', mediaId: out.postId });
    expect(unitOf(ctx.checkpoint.data).containerId).not.toBe(unitOf(made).containerId);
  });

  it('is dropped when only an option changed since', async () => {
    const made = await prepare('same text', { reply_control: 'everyone' });
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'same text', options: { reply_control: 'accounts_you_follow' }, checkpoint: made });
    await drive(s.clock, adapter.publish(ctx));
    expect(s.requests('/threads-acct/threads').map((r) => r.params.reply_control)).toEqual(['everyone', 'accounts_you_follow']);
    expect(s.state.posts).toHaveLength(1);
  });

  it('is not taken up when made over an hour before the attempt (the post was moved later)', async () => {
    const made = await prepare('moved later');
    await s.clock.advance(61 * 60_000);
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'moved later', checkpoint: made });
    await drive(s.clock, adapter.publish(ctx));
    expect(s.requests('/threads-acct/threads')).toHaveLength(2);
    expect(s.state.posts).toHaveLength(1);
  });

  it('is settled as not published by reconcile, with no call: nothing was ever published from it', async () => {
    const made = await prepare('interrupted');
    const before = s.state.requests.length;
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'interrupted', checkpoint: made });
    expect(await adapter.reconcile(ctx)).toMatchObject({ state: 'not_published' });
    expect(s.state.requests.length).toBe(before);
  });

  it('is not made for a post with media, nor made twice', async () => {
    const media = context(s, { platform: 'threads', type: 'post', caption: 'a picture', media: [mediaFile('image')] });
    await drive(s.clock, adapter.prepare!(media));
    expect(s.state.requests).toHaveLength(0);
    expect(media.checkpoints).toHaveLength(0);

    const made = await prepare('once');
    const again = context(s, { platform: 'threads', type: 'post', caption: 'once', checkpoint: made });
    await drive(s.clock, adapter.prepare!(again));
    expect(s.requests('/threads-acct/threads')).toHaveLength(1);
  });
});
