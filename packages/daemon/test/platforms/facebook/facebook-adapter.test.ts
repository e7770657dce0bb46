import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter';
import { AuthExpiredError, PermanentError, RateLimitedError } from '../../../src/platforms/errors';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const FB = 'graph.facebook.com';
const adapter = createFacebookAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

describe('facebook adapter against the simulator', () => {
  it('publishes a text post to the page feed, its permalink asked for on the same call (read-after-write)', async () => {
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'Hello page' });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.sequence()).toEqual([`POST ${FB} /page1/feed`]);
    expect(s.requests('/page1/feed')[0]!.params).toEqual({ message: 'Hello page', fields: 'id,permalink_url' });
    // The publish mark before the call; the post id and its link together after it.
    expect(ctx.checkpoints.map((c) => [c.postId ?? null, c.postUrl ?? null])).toEqual([
      [null, null],
      [out.postId, out.postUrl],
    ]);
    expect(out).toEqual({ postId: s.state.posts[0]!.postId, postUrl: `https://www.facebook.com/${out.postId}` });
    expect(out.postId).toMatch(/^page1_\d+$/);
  });

  it("answers a create call's fields as Graph's read-after-write does, and refuses a field a post does not have", async () => {
    const create = (fields: string) =>
      fetch(`${s.baseUrl(FB)}/v25.0/page1/feed`, { method: 'POST', body: new URLSearchParams({ message: `asked for ${fields}`, fields, access_token: 'sandbox_at_test' }) });
    const ok = (await (await create('id,permalink_url,created_time')).json()) as Record<string, string>;
    expect(Object.keys(ok)).toEqual(['id', 'permalink_url', 'created_time']);
    expect(ok.permalink_url).toBe(`https://www.facebook.com/${ok.id}`);
    const bad = await create('id,likes_count');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: number; message: string } }).error).toMatchObject({ code: 100, message: '(#100) Tried accessing nonexisting field (likes_count) on node type (PagePost)' });
    // Refused before anything was made.
    expect(s.state.posts.map((p) => p.body.message)).toEqual(['asked for id,permalink_url,created_time']);
  });

  it('publishes a link post with the link parameter', async () => {
    await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'Read https://example.com/a now' })));
    expect(s.requests('/page1/feed')[0]!.params).toEqual({ message: 'Read https://example.com/a now', link: 'https://example.com/a', fields: 'id,permalink_url' });
    expect(s.state.posts[0]!.kind).toBe('link');
  });

  it('uploads one photo as multipart source with its message', async () => {
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'pic', media: [mediaFile('image')] })));
    const [r] = s.requests('/page1/photos');
    expect(r!.files).toEqual(['source']);
    expect(r!.params).toEqual({ message: 'pic' });
    expect(out.postId).toBe(s.state.posts[0]!.postId);
  });

  it('publishes several photos as unpublished photos attached to one feed post', async () => {
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'album', media: [mediaFile('image'), mediaFile('image')] });
    await drive(s.clock, adapter.publish(ctx));
    expect(s.requests('/page1/photos').map((r) => r.params)).toEqual([{ published: 'false' }, { published: 'false' }]);
    const photos = ctx.checkpoint.data.photos as string[];
    expect(s.requests('/page1/feed')[0]!.params).toEqual({ message: 'album', attached_media: JSON.stringify(photos.map((id) => ({ media_fbid: id }))), fields: 'id,permalink_url' });
    expect(s.state.posts).toHaveLength(1);
  });

  it('uploads a feed video to graph-video.facebook.com', async () => {
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'film', media: [mediaFile('video')] })));
    expect(s.sequence()[0]).toBe('POST graph-video.facebook.com /page1/videos');
    expect(s.requests('/page1/videos')[0]!.params).toEqual({ description: 'film' });
    expect(out).toEqual({ postId: s.state.posts[0]!.postId, postUrl: `https://www.facebook.com/page1/videos/${out.postId}` });
  });

  it('publishes a photo story: unpublished photo, then photo_stories', async () => {
    const out = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'story', media: [mediaFile('image')] })));
    expect(s.sequence()).toEqual([`POST ${FB} /page1/photos`, `POST ${FB} /page1/photo_stories`, `GET ${FB} /page1/stories`]);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    expect(out.postUrl).toBe(s.state.posts[0]!.postUrl);
  });

  it('publishes a video story: start, rupload bytes, wait for ready, finish', async () => {
    const v = mediaFile('video', { bytes: 5000 });
    const ctx = context(s, { platform: 'facebook', type: 'story', media: [v] });
    await drive(s.clock, adapter.publish(ctx));
    const videoId = (ctx.checkpoint.data.stories as { videoId: string }[])[0]!.videoId;
    expect(s.sequence()).toEqual([
      `POST ${FB} /page1/video_stories`,
      `GET ${FB} /${videoId}`,
      `POST rupload.facebook.com /video-upload/v25.0/${videoId}`,
      `GET ${FB} /${videoId}`,
      `POST ${FB} /page1/video_stories`,
      `GET ${FB} /page1/stories`,
    ]);
    const upload = s.requests(`/video-upload/v25.0/${videoId}`)[0]!;
    expect(upload.headers).toMatchObject({ offset: '0', file_size: '5000' });
    expect(upload.bodyBytes).toBe(5000);
    expect(s.requests('/page1/video_stories').map((r) => r.params)).toEqual([{ upload_phase: 'start' }, { upload_phase: 'finish', video_id: videoId }]);
    expect(s.state.posts.map((p) => p.kind)).toEqual(['story']);
  });

  it('publishes a reel: start, rupload, finish with video_state PUBLISHED', async () => {
    const ctx = context(s, { platform: 'facebook', type: 'reels', caption: 'my reel #fun', media: [mediaFile('video', { bytes: 3000 })] });
    const out = await drive(s.clock, adapter.publish(ctx));
    const videoId = ctx.checkpoint.data.videoId as string;
    expect(s.requests('/page1/video_reels').map((r) => r.params)).toEqual([
      { upload_phase: 'start' },
      { upload_phase: 'finish', video_id: videoId, video_state: 'PUBLISHED', description: 'my reel #fun' },
    ]);
    expect(s.requests(`/video-upload/v25.0/${videoId}`)[0]!.headers).toMatchObject({ offset: '0', file_size: '3000' });
    expect(out).toEqual({ postId: videoId, postUrl: `https://www.facebook.com/reel/${videoId}` });
    expect(s.state.posts[0]!.postId).toBe(videoId);
  });

  it('reconciles a reel whose finish answer was lost from publish_status', async () => {
    const ctx = context(s, { platform: 'facebook', type: 'reels', caption: 'r', media: [mediaFile('video')] });
    const origin = s.state.takeFault.bind(s.state);
    let calls = 0;
    // The first video_reels call is start; the answer to the second (finish) is lost after the reel is made.
    s.state.takeFault = (req) => (req.path === '/page1/video_reels' && ++calls === 2 ? { hangUpAfter: true } : origin(req));
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(ctx.checkpoint.data.videoId);
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'reels', checkpoint: { ...ctx.checkpoint.data, postId: null } })));
    expect(rec.state).toBe('published');
  });

  it('reconciles a story from the page stories list by media id', async () => {
    const ctx = context(s, { platform: 'facebook', type: 'story', media: [mediaFile('image')] });
    await drive(s.clock, adapter.publish(ctx));
    const steps = structuredClone(ctx.checkpoint.data.stories as Record<string, unknown>[]);
    delete steps[0]!.postId;
    delete steps[0]!.url;
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'story', checkpoint: { stories: steps } })));
    expect(rec).toEqual({ state: 'published', outcome: { postId: s.state.posts[0]!.postId, postUrl: s.state.posts[0]!.postUrl } });
  });

  it('refuses a 31st reel in 24 hours with a rate limit', async () => {
    s.state.config.quota.facebookReels = 0;
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'reels', media: [mediaFile('video')] }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitedError);
  });

  it('keeps the platform code, subcode and fbtrace_id of a refusal', async () => {
    s.state.faults.push({ path: '/page1/feed', error: { status: 400, error: { message: '(#1404078) Page Publishing Authorization required', code: 200, error_subcode: 1404078, fbtrace_id: 'TRACE1' } } });
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'x' }))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('200/1404078');
    expect((err as Error).message).toBe('Facebook: (#1404078) Page Publishing Authorization required (code 200, subcode 1404078, fbtrace_id TRACE1)');
  });

  it('fails with auth expired and marks the connection when the page token is invalid', async () => {
    s.state.faults.push({ path: '/page1/feed', error: { status: 400, error: { message: 'Error validating access token: The user has not authorized application.', code: 190, error_subcode: 458 } } });
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'x' });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthExpiredError);
    expect(ctx.expired).toHaveLength(1);
    expect(s.state.posts).toHaveLength(0);
  });

  it('answers 506 on a consecutive duplicate text post', async () => {
    await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'same' })));
    const err = await drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption: 'same' }))).catch((e: unknown) => e);
    expect((err as PermanentError).platformCode).toBe('506');
  });

  it('judges a duplicate against the latest post the page still has, once the newer one is deleted', async () => {
    const post = (caption: string) => drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', caption })));
    await post('first words');
    const second = await post('second words');
    const deleted = await fetch(`${s.baseUrl(FB)}/v25.0/${second.postId}?access_token=sandbox_at_test`, { method: 'DELETE' });
    expect(await deleted.json()).toEqual({ success: true });
    // The page's latest post is the first again: repeating it is a duplicate, the deleted one's text is not.
    expect(((await post('first words').catch((e: unknown) => e)) as PermanentError).platformCode).toBe('506');
    expect((await post('second words')).postId).not.toBe(second.postId);
    expect(s.state.posts.map((p) => p.body.message)).toEqual(['first words', 'second words', 'second words']);
  });

  it('settles a lost answer to a feed post by finding it on the page', async () => {
    s.state.faults.push({ path: '/page1/feed', method: 'POST', hangUpAfter: true });
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'findable' });
    const out = await drive(s.clock, adapter.publish(ctx));
    expect(s.state.posts).toHaveLength(1);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
    expect(s.sequence()).toContain(`GET ${FB} /page1/feed`);
  });

  it('calls a lost feed post of a checkpoint that does not say which edge it went to unknown, and never posts it again', async () => {
    // Checkpoints written before `via` was kept: the call may have been a feed video, which the feed cannot settle.
    const ctx = context(s, { platform: 'facebook', type: 'feed', caption: 'ghost', checkpoint: { publishCalledAt: s.clock.now() } });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    expect((err as { kind: string }).kind).toBe('outcome_unknown');
    expect(s.requests('/page1/feed')).toHaveLength(0);
    const rec = await drive(s.clock, adapter.reconcile(ctx));
    expect(rec.state).toBe('unknown');
  });

  it('resumes a story target after a crash without repeating the published story', async () => {
    const media = [mediaFile('image'), mediaFile('image')];
    s.state.faults.push({ path: '/page1/photo_stories', error: { status: 500, error: { message: 'An unexpected error has occurred.', code: 2, is_transient: true } } });
    // The first story goes out; the second story's call fails before anything is made.
    const origin = s.state.takeFault.bind(s.state);
    let n = 0;
    s.state.takeFault = (req) => (req.path === '/page1/photo_stories' && ++n === 2 ? origin(req) : null);
    const ctx = context(s, { platform: 'facebook', type: 'story', media });
    const err = await drive(s.clock, adapter.publish(ctx)).catch((e: unknown) => e);
    // The page's stories list shows the second story is not there: safe to try again.
    expect((err as { kind: string }).kind).toBe('retryable');
    expect(s.state.posts).toHaveLength(1);
    const rec = await drive(s.clock, adapter.reconcile(context(s, { platform: 'facebook', type: 'story', checkpoint: ctx.checkpoint.data })));
    expect(rec.state).toBe('not_published');
    const resumed = context(s, { platform: 'facebook', type: 'story', media, checkpoint: ctx.checkpoint.data });
    const out = await drive(s.clock, adapter.publish(resumed));
    expect(s.state.posts.map((p) => p.kind)).toEqual(['story', 'story']);
    expect(out.postId).toBe(s.state.posts[0]!.postId);
  });
});

describe('facebook validation', () => {
  const base = { platform: 'facebook' as const, publicBaseUrl: null, caption: 'x' };
  const img = { url: 'https://d/f.jpg', kind: 'image' as const, mimeType: 'image/jpeg', size: 1000, prepared: true };
  const vid = { url: 'https://d/f.mp4', kind: 'video' as const, mimeType: 'video/mp4', size: 1000, prepared: true, durationSec: 120 };

  it('needs no public URL, since socialpub uploads the bytes', () => {
    expect(adapter.validate({ ...base, type: 'feed', media: [img] })).toEqual([]);
  });

  it('refuses photos mixed with a video, a text-less post without media and a 120 s reel', () => {
    expect(adapter.validate({ ...base, type: 'feed', media: [img, vid] })[0]!.message).toBe('A Facebook feed post carries either photos or one video, not both.');
    expect(adapter.validate({ ...base, caption: ' ', type: 'feed', media: [] })[0]!.message).toBe('A Facebook post without media needs text.');
    expect(adapter.validate({ ...base, type: 'reels', media: [vid] })[0]!.message).toBe('Facebook reels videos may last at most 90 s; this one lasts 120 s.');
  });
});
