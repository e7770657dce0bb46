import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadsAdapter } from '../../../src/platforms/threads/adapter';
import { PermanentError, RateLimitedError, RetryableError } from '../../../src/platforms/errors';
import { threadsLength } from '../../../src/platforms/meta/text-rules';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const TH = 'graph.threads.net';
const adapter = createThreadsAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const created = () => s.requests('/threads-acct/threads').map((r) => r.params);

describe('threads adapter against the simulator', () => {
  it('publishes a text post in two calls in a row: TEXT container, threads_publish (then the permalink)', async () => {
    // A text container with nothing to process is FINISHED at once (as in the sandbox).
    s.state.config.imageProcessingMs = 0;
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'hello threads' });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.sequence()).toEqual([`POST ${TH} /threads-acct/threads`, `POST ${TH} /threads-acct/threads_publish`, `GET ${TH} /${out.postId}`]);
    expect(created()).toEqual([{ media_type: 'TEXT', text: 'hello threads' }]);
    expect(s.state.requests.every((r) => r.version === 'v1.0')).toBe(true);
    expect(out).toEqual({ postId: s.state.posts[0]!.postId, postUrl: expect.stringMatching(/^https:\/\/www\.threads\.net\/@[\w.]+\/post\/\w+$/) });
  });

  it('writes one checkpoint between the two calls of a text post and one after, and a crash right after the first publishes once', async () => {
    s.state.config.imageProcessingMs = 0;
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'one checkpoint between' });
    await drive(s.clock, adapter.publish(ctx));
    type Units = { units: { post: { containerId?: string; publishCalledAt?: number; mediaId?: string } } };
    // Two writes in all: the permalink read after the post goes out with the target's end, not on its own.
    expect(ctx.checkpoints).toHaveLength(2);
    const [first, second] = ctx.checkpoints as Units[];
    // The container id and the mark that the publish call is being made, in one write; then the media id.
    expect(first!.units.post).toEqual({ key: 'post', kind: 'post', caption: 'one checkpoint between', containerId: expect.any(String), publishCalledAt: expect.any(Number) });
    expect(second!.units.post.mediaId).toBe(s.state.posts[0]!.postId);

    // A daemon that died right after that write, before threads_publish: the container is
    // FINISHED, so not published; the next attempt reads it and publishes it, once.
    const made = await fetch(`${s.baseUrl(TH)}/v1.0/threads-acct/threads`, {
      method: 'POST',
      body: new URLSearchParams({ media_type: 'TEXT', text: 'killed before publishing', access_token: 'sandbox_at_test' }),
    });
    const containerId = ((await made.json()) as { id: string }).id;
    const checkpoint = { units: { post: { key: 'post', kind: 'post', caption: 'killed before publishing', containerId, publishCalledAt: s.clock.now() } } };
    const before = s.state.posts.length;
    expect(await adapter.reconcile(context(s, { platform: 'threads', type: 'post', caption: 'killed before publishing', checkpoint }))).toMatchObject({ state: 'not_published' });
    const resumed = context(s, { platform: 'threads', type: 'post', caption: 'killed before publishing', checkpoint });
    const out = await drive(s.clock, adapter.publish(resumed));
    expect(s.state.posts.slice(before).map((p) => p.postId)).toEqual([out.postId]);
  });

  it('publishes a text container still processing after the refusal: polls, then threads_publish once', async () => {
    // The harness's default: a text container stays IN_PROGRESS for 3 s.
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'slow text' });
    const out = await drive(s.clock, adapter.publish(ctx));
    const cid = (ctx.checkpoint.data.units as { post: { containerId: string } }).post.containerId;
    expect(s.sequence()).toEqual([
      `POST ${TH} /threads-acct/threads`,
      `POST ${TH} /threads-acct/threads_publish`,
      `GET ${TH} /${cid}`,
      `POST ${TH} /threads-acct/threads_publish`,
      `GET ${TH} /${out.postId}`,
    ]);
    expect(s.state.requests.filter((r) => r.path === '/threads-acct/threads_publish').map((r) => r.status)).toEqual([400, 200]);
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });

  it('reads the publishing limit before making a media container, never before a text one', async () => {
    s.state.config.imageProcessingMs = 0;
    await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'pic', media: [mediaFile('image')] })));
    expect(s.sequence().slice(0, 2)).toEqual([`GET ${TH} /threads-acct/threads_publishing_limit`, `POST ${TH} /threads-acct/threads`]);
  });

  it('retries, never reviews, a lost answer to a publish refused as not ready: the container is still IN_PROGRESS', async () => {
    s.state.faults.push({ path: '/threads_publish', hangUpAfter: true });
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'early' });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetryableError);
    expect(s.state.posts).toHaveLength(0);
    await s.clock.advance(3_000);
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'early', checkpoint: ctx.checkpoint.data })));
    expect(s.state.posts.map((p) => p.postId)).toEqual([out.postId]);
  });

  it('publishes an image and a video post from their public URLs', async () => {
    const img = mediaFile('image');
    const vid = mediaFile('video');
    await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'pic', media: [img] })));
    await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'vid', media: [vid] })));
    expect(created()).toEqual([
      { media_type: 'IMAGE', image_url: img.publicUrl, text: 'pic' },
      { media_type: 'VIDEO', video_url: vid.publicUrl, text: 'vid' },
    ]);
    expect(s.state.posts.map((p) => p.kind)).toEqual(['image', 'video']);
  });

  it('publishes a carousel: children one by one, then CAROUSEL with children and text', async () => {
    const media = [mediaFile('image'), mediaFile('video'), mediaFile('image')];
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'album', media });
    await drive(s.clock, adapter.publish(ctx));
    const children = (ctx.checkpoint.data.units as { post: { children: string[] } }).post.children;
    expect(created()).toEqual([
      { media_type: 'IMAGE', image_url: media[0]!.publicUrl, is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: media[1]!.publicUrl, is_carousel_item: 'true' },
      { media_type: 'IMAGE', image_url: media[2]!.publicUrl, is_carousel_item: 'true' },
      { media_type: 'CAROUSEL', children: children.join(','), text: 'album' },
    ]);
    expect(s.state.posts).toHaveLength(1);
  });

  it('sends the token as the access_token parameter and never records it', async () => {
    await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'x' })));
    expect(JSON.stringify(s.state.requests)).not.toContain('sandbox_at_test');
    expect(JSON.stringify(s.state.posts)).not.toContain('sandbox_at_test');
  });

  it('fails with the platform error_message when the container ends in ERROR', async () => {
    s.state.processingFailures.push({ platform: 'threads', message: 'FAILED_PROCESSING_VIDEO' });
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', media: [mediaFile('video')] }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toBe('Threads could not process the media: FAILED_PROCESSING_VIDEO');
  });

  it('reschedules after the window when the 250-post quota is used up', async () => {
    s.state.config.quota.threads = 0;
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'x' }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).until).toBe(s.clock.now() + 86_400_000);
  });

  it('settles a timed-out threads_publish from the container: published exactly once', async () => {
    s.state.config.imageProcessingMs = 0;
    s.state.faults.push({ path: '/threads_publish', hangUpAfter: true });
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'just once' });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    const again = await drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', caption: 'just once', checkpoint: ctx.checkpoint.data })));
    expect(again.postId).toBe(out.postId);
    expect(s.state.requests.filter((r) => r.path === '/threads-acct/threads_publish')).toHaveLength(1);
  });

  it('refreshes a Threads token on 190 and retries the step once', async () => {
    s.state.issueToken({ token: 'THL-old', platform: 'threads', kind: 'threads_user', accountId: 'threads-acct', expiresAt: s.clock.now() + 10 * 86_400_000, longLived: true, issuedAt: s.clock.now() - 3 * 86_400_000 });
    s.state.addAccount({ id: 'threads-acct', platform: 'threads', kind: 'threads_user', username: 'th', name: 'Th' });
    s.state.faults.push({ path: '/threads-acct/threads', method: 'POST', error: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } } });
    const ctx = context(s, { platform: 'threads', type: 'post', caption: 'x', credentials: { secrets: { access_token: 'THL-old' } } });
    await drive(s.clock, adapter.publish(ctx));
    expect(ctx.saved.map((u) => u.secrets.access_token)).toEqual([expect.stringMatching(/^THR/)]);
    expect(s.sequence()).toContain(`GET ${TH} /refresh_access_token`);
    expect(s.state.posts).toHaveLength(1);
  });
});

describe('threads validation', () => {
  const base = { platform: 'threads' as const, type: 'post' as const, publicBaseUrl: null, media: [] };

  it('counts emojis as their UTF-8 bytes', () => {
    expect(threadsLength('hi 👋')).toBe(3 + 4);
    expect(threadsLength('👨‍👩‍👧')).toBe(18);
    const text = 'a'.repeat(497) + '👋';
    expect(adapter.validate({ ...base, caption: text })[0]!.message).toBe('Threads posts may have at most 500 characters, emojis counted as their UTF-8 bytes; this one counts 501.');
    expect(adapter.validate({ ...base, caption: 'a'.repeat(496) + '👋' })).toEqual([]);
  });

  it('refuses more than 5 distinct links', () => {
    const caption = [1, 2, 3, 4, 5, 6].map((i) => `https://e${i}.example.com`).join(' ');
    expect(adapter.validate({ ...base, caption })[0]!.message).toBe('Threads posts may contain at most 5 links; this one has 6.');
  });

  it('needs a public URL for prepared media', () => {
    const issues = adapter.validate({ ...base, caption: 'x', media: [{ url: 'https://d/f.jpg', kind: 'image', mimeType: 'image/jpeg', size: 10, prepared: true }] });
    expect(issues[0]!.message).toContain('--public-url');
  });
});
