import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInstagramAdapter } from '../../../src/platforms/instagram/adapter';
import { AuthExpiredError, PermanentError, RateLimitedError } from '../../../src/platforms/errors';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const IG = 'graph.instagram.com';
const adapter = createInstagramAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const params = (path: string, method = 'POST') => s.requests(path, method).map((r) => r.params);

describe('instagram adapter against the simulator', () => {
  it('publishes one image as a feed post: quota check, container, polling, media_publish, permalink', async () => {
    const img = mediaFile('image');
    const ctx = context(s, { platform: 'instagram', type: 'feed', caption: 'Hello #one', media: [img] });
    const out = await drive(s.clock, adapter.publish(ctx));
    const [post] = s.state.posts;
    expect(out).toEqual({ postId: post!.postId, postUrl: post!.postUrl });
    expect(post!.postUrl).toMatch(/^https:\/\/www\.instagram\.com\/p\/\w+\/$/);
    const cid = (ctx.checkpoint.data.units as { post: { containerId: string } }).post.containerId;
    expect(s.sequence()).toEqual([
      `GET ${IG} /instagram-acct/content_publishing_limit`,
      `POST ${IG} /instagram-acct/media`,
      `GET ${IG} /${cid}`,
      `POST ${IG} /instagram-acct/media_publish`,
      `GET ${IG} /${out.postId}`,
    ]);
    expect(params('/instagram-acct/media')[0]).toEqual({ image_url: img.publicUrl, caption: 'Hello #one' });
    expect(params('/instagram-acct/media_publish')[0]).toEqual({ creation_id: cid });
    expect(s.state.requests.every((r) => r.version === 'v25.0' || r.path.includes('access_token'))).toBe(true);
  });

  it('publishes several media as a carousel of children, then the parent', async () => {
    const media = [mediaFile('image'), mediaFile('video'), mediaFile('image')];
    const ctx = context(s, { platform: 'instagram', type: 'feed', caption: 'three', media });
    await drive(s.clock, adapter.publish(ctx));
    const created = params('/instagram-acct/media');
    expect(created.slice(0, 3)).toEqual([
      { image_url: media[0]!.publicUrl, is_carousel_item: 'true' },
      { media_type: 'VIDEO', video_url: media[1]!.publicUrl, is_carousel_item: 'true' },
      { image_url: media[2]!.publicUrl, is_carousel_item: 'true' },
    ]);
    const children = (ctx.checkpoint.data.units as { post: { children: string[] } }).post.children;
    expect(created[3]).toEqual({ media_type: 'CAROUSEL', children: children.join(','), caption: 'three' });
    expect(s.state.posts).toHaveLength(1);
    expect(s.state.posts[0]!.kind).toBe('carousel');
  });

  it('publishes a single feed video as a reel', async () => {
    const v = mediaFile('video');
    await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', caption: 'clip', media: [v] })));
    expect(params('/instagram-acct/media')).toEqual([{ media_type: 'REELS', video_url: v.publicUrl, caption: 'clip', share_to_feed: 'true' }]);
    expect(s.state.posts[0]!.postUrl).toMatch(/\/reel\//);
  });

  it('publishes reels with media_type REELS', async () => {
    const v = mediaFile('video');
    await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'reels', caption: 'r', media: [v] })));
    expect(params('/instagram-acct/media')).toEqual([{ media_type: 'REELS', video_url: v.publicUrl, caption: 'r', share_to_feed: 'true' }]);
    expect(s.state.posts.map((p) => p.kind)).toEqual(['reel']);
  });

  it('publishes each story media with its own container and publish, without a caption', async () => {
    const media = [mediaFile('image'), mediaFile('video')];
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'story', caption: 'ignored', media })));
    expect(params('/instagram-acct/media')).toEqual([
      { media_type: 'STORIES', image_url: media[0]!.publicUrl },
      { media_type: 'STORIES', video_url: media[1]!.publicUrl },
    ]);
    expect(params('/instagram-acct/media_publish')).toHaveLength(2);
    expect(s.state.posts.map((p) => p.kind)).toEqual(['story', 'story']);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    // Story 2 is created only after story 1 is published (one at a time).
    const seq = s.sequence();
    expect(seq.indexOf(`POST ${IG} /instagram-acct/media_publish`)).toBeLessThan(seq.lastIndexOf(`POST ${IG} /instagram-acct/media`));
  });

  it('polls at the 20 s cadence while the container is IN_PROGRESS', async () => {
    s.state.config.videoProcessingMs = 65_000;
    const start = s.clock.now();
    await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'reels', media: [mediaFile('video')] })));
    const polls = s.state.requests.filter((r) => r.method === 'GET' && r.params.fields === 'status_code,status').map((r) => r.at - start);
    expect(polls).toEqual([0, 20_000, 40_000, 60_000, 80_000]);
  });

  it('waits and publishes once when media_publish answers 9007/2207027 (not ready)', async () => {
    s.state.faults.push({ path: '/media_publish', error: { status: 400, error: { message: 'The media is not ready for publishing, please wait for a moment', code: 9007, error_subcode: 2207027 } } });
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] })));
    expect(params('/instagram-acct/media_publish')).toHaveLength(2);
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
  });

  it('fails with the platform message when the container ends in ERROR', async () => {
    s.state.processingFailures.push({ platform: 'instagram', message: 'The aspect ratio is not supported. (2207009)' });
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toBe('Instagram could not process the media: The aspect ratio is not supported. (2207009)');
    expect(s.state.posts).toHaveLength(0);
  });

  it('answers a used-up quota with RateLimitedError until the 24 h window has passed', async () => {
    s.state.config.quota.instagram = 1;
    await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] })));
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).until).toBe(s.clock.now() + 86_400_000);
    expect(s.requests('/instagram-acct/media')).toHaveLength(1);
  });

  it('maps a quota refusal on media_publish (9/2207042) to the window read from content_publishing_limit', async () => {
    s.state.faults.push({ path: '/media_publish', error: { status: 400, error: { message: 'Application request limit reached', code: 9, error_subcode: 2207042 } } });
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
    expect((err as RateLimitedError).platformCode).toBe('9/2207042');
    expect((err as RateLimitedError).until).toBe(s.clock.now() + 86_400_000);
  });

  it('settles a timed-out media_publish from the container status: published once, never twice', async () => {
    s.state.faults.push({ path: '/media_publish', hangUpAfter: true });
    const ctx = context(s, { platform: 'instagram', type: 'feed', caption: 'once', media: [mediaFile('image')] });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    // A crash before the outcome was saved: reconcile and a resumed publish both find the post.
    const resumed = context(s, { platform: 'instagram', type: 'feed', caption: 'once', media: ctx.media, checkpoint: { units: { post: { ...(ctx.checkpoints.find((c) => (c.units as { post: { publishCalledAt?: number } }).post.publishCalledAt)!.units as { post: object }).post } } } });
    const rec = await drive(s.clock, adapter.reconcile(resumed));
    expect(rec).toEqual({ state: 'published', outcome: { postId: out.postId, postUrl: s.state.posts[0]!.postUrl } });
    await drive(s.clock, adapter.publish(resumed));
    expect(s.state.posts).toHaveLength(1);
    expect(params('/instagram-acct/media_publish')).toHaveLength(1);
  });

  it('reconciles a target whose container was never published as not published', async () => {
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] });
    s.state.faults.push({ path: '/media_publish', error: { status: 500, error: { message: 'An unknown error occurred', code: 1, is_transient: true } } });
    await drive(s.clock, adapter.publish(ctx)).catch(() => {});
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'instagram', type: 'feed', checkpoint: ctx.checkpoint.data })));
    expect(rec.state).toBe('not_published');
    expect(s.state.posts).toHaveLength(0);
  });

  it('refuses, before creating anything, a live publish whose media URL is on this machine', async () => {
    const img = mediaFile('image', { publicUrl: 'http://127.0.0.1:8787/files/abc.jpg' });
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [img], credentials: { mode: 'live' } });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as Error).message).toMatch(/127\.0\.0\.1:8787.*--public-url/);
    expect(s.state.requests.filter((r) => r.method === 'POST')).toEqual([]);
  });

  it('refreshes an expired Instagram Login token and retries the step once', async () => {
    s.state.issueToken({ token: 'IGL-old', platform: 'instagram', kind: 'ig_user', accountId: 'instagram-acct', expiresAt: s.clock.now() + 30 * 86_400_000, longLived: true, issuedAt: s.clock.now() - 2 * 86_400_000 });
    s.state.addAccount({ id: 'instagram-acct', platform: 'instagram', kind: 'ig_user', username: 'tester', name: 'Tester' });
    s.state.faults.push({ path: '/instagram-acct/media', method: 'POST', error: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } } });
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')], credentials: { secrets: { access_token: 'IGL-old' } } });
    await drive(s.clock, adapter.publish(ctx));
    expect(ctx.saved).toHaveLength(1);
    const fresh = ctx.saved[0]!.secrets.access_token!;
    expect(fresh).not.toBe('IGL-old');
    expect(ctx.saved[0]!.tokenExpiresAt).toBe(ctx.saved[0]!.tokenObtainedAt! + 5_184_000_000);
    expect(s.sequence()).toContain(`GET ${IG} /refresh_access_token`);
    expect(params('/instagram-acct/media')).toHaveLength(2);
    expect(s.state.posts).toHaveLength(1);
    expect(ctx.expired).toEqual([]);
  });

  it('marks the connection expired when the platform refuses the refresh', async () => {
    s.state.issueToken({ token: 'IGL-young', platform: 'instagram', kind: 'ig_user', accountId: 'instagram-acct', expiresAt: s.clock.now() + 86_400_000, longLived: true });
    s.state.addAccount({ id: 'instagram-acct', platform: 'instagram', kind: 'ig_user', username: 'tester', name: 'Tester' });
    s.state.faults.push({ path: '/content_publishing_limit', error: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } } });
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')], credentials: { secrets: { access_token: 'IGL-young' } } });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect(ctx.expired).toHaveLength(1);
    expect(ctx.expired[0]).toMatch(/at least 24 hours old/);
    expect(s.state.posts).toHaveLength(0);
  });

  it('treats a transient refresh failure as retryable without expiring the connection', async () => {
    s.state.faults.push({ path: '/content_publishing_limit', error: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } } });
    s.state.faults.push({ path: '/refresh_access_token', error: { status: 503, error: { message: 'Service temporarily unavailable', code: 2, is_transient: true } } });
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')] });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect((err as { kind: string }).kind).toBe('retryable');
    expect(ctx.expired).toEqual([]);
  });
});

describe('instagram through Facebook Login', () => {
  it('publishes on graph.facebook.com with the page token', async () => {
    const ctx = context(s, { platform: 'instagram', type: 'feed', caption: 'fb', media: [mediaFile('image')], credentials: { meta: { login: 'facebook' }, pageId: 'page9' } });
    await drive(s.clock, adapter.publish(ctx));
    expect(new Set(s.state.requests.map((r) => r.host))).toEqual(new Set(['graph.facebook.com']));
    expect(s.state.posts).toHaveLength(1);
  });

  it('cannot refresh a Facebook Login token: an auth error expires the connection', async () => {
    s.state.faults.push({ path: '/content_publishing_limit', error: { status: 400, error: { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 } } });
    const ctx = context(s, { platform: 'instagram', type: 'feed', media: [mediaFile('image')], credentials: { meta: { login: 'facebook' } } });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect((err as Error).message).toMatch(/socialpub connect instagram/);
    expect(ctx.expired).toHaveLength(1);
    expect(s.sequence().some((l) => l.includes('refresh_access_token'))).toBe(false);
  });
});

describe('instagram stories after a crash', () => {
  it('resumes with the next story and never repeats a published one', async () => {
    const media = [mediaFile('image'), mediaFile('image'), mediaFile('image')];
    const origin = s.state.takeFault.bind(s.state);
    let n = 0;
    // The answer to the second media_publish is lost and the container cannot be read right after: unknown.
    s.state.takeFault = (req) => {
      if (req.path.endsWith('/media_publish') && ++n === 2) {
        s.state.faults.push({ method: 'GET', path: /^\/\d+$/, error: { status: 503, error: { message: 'Service unavailable', code: 2, is_transient: true } } });
        return { hangUpAfter: true };
      }
      return origin(req);
    };
    const ctx = context(s, { platform: 'instagram', type: 'story', media });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect((err as { kind: string }).kind).toBe('outcome_unknown');
    expect(s.state.posts).toHaveLength(2);
    // The publisher reconciles without media; the checkpoint knows all three stories.
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'instagram', type: 'story', checkpoint: ctx.checkpoint.data })));
    expect(rec).toMatchObject({ state: 'not_published', reason: 'story:2 has no container yet' });
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'instagram', type: 'story', media, checkpoint: ctx.checkpoint.data })));
    expect(s.state.posts.map((p) => p.kind)).toEqual(['story', 'story', 'story']);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    expect(s.state.requests.filter((r) => r.path.endsWith('/media_publish'))).toHaveLength(3);
  });
});

describe('instagram validation', () => {
  const base = { platform: 'instagram' as const, publicBaseUrl: null, caption: '' };
  const prepared = { url: 'https://socialpub.local/files/x.jpg', kind: 'image' as const, mimeType: 'image/jpeg', size: 1000, prepared: true };

  it('names the --public-url fix when a prepared file cannot be reached', () => {
    const issues = adapter.validate({ ...base, type: 'feed', media: [prepared] });
    expect(issues).toEqual([{ path: 'media_urls[0]', message: expect.stringContaining('--public-url') }]);
    expect(issues[0]!.message).toContain('SOCIALPUB_PUBLIC_URL');
    expect(adapter.validate({ ...base, publicBaseUrl: 'https://pub.example.com', type: 'feed', media: [prepared] })).toEqual([]);
  });

  it('allows 5 hashtags by default and a configured number otherwise', () => {
    const caption = '#a #b #c #d #e #f';
    expect(adapter.validate({ ...base, publicBaseUrl: 'https://p', type: 'feed', caption, media: [prepared] })[0]!.message).toBe('Instagram allows at most 5 hashtags per post; this caption has 6.');
    expect(createInstagramAdapter({ maxHashtags: 30 }).validate({ ...base, publicBaseUrl: 'https://p', type: 'feed', caption, media: [prepared] })).toEqual([]);
  });

  it('refuses more than 10 carousel items, non-JPEG images and a reel that is not one video', () => {
    const many = Array.from({ length: 11 }, () => ({ ...prepared, prepared: false }));
    expect(adapter.validate({ ...base, type: 'feed', media: many }).map((i) => i.message)).toContain('Instagram feed takes at most 10 media items; 11 given.');
    expect(adapter.validate({ ...base, type: 'feed', media: [{ ...prepared, prepared: false, mimeType: 'image/png' }] })[0]!.message).toMatch(/JPEG/);
    expect(adapter.validate({ ...base, type: 'reels', media: [{ ...prepared, prepared: false }] })[0]!.message).toBe('Instagram reels does not take images.');
  });
});
