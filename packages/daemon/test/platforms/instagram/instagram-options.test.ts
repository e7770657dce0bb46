import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInstagramAdapter } from '../../../src/platforms/instagram/adapter';
import { PermanentError } from '../../../src/platforms/errors';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const adapter = createInstagramAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const created = () => s.requests('/instagram-acct/media').map((r) => r.params);
const publish = (o: Parameters<typeof context>[1]) => drive(s.clock, adapter.publish(context(s, o)));
const failure = (o: Parameters<typeof context>[1]) => publish(o).then((): Error => new Error('published, not refused'), (e: unknown) => e as Error);

describe('platform_options.instagram reach the container requests as docs/reference/platforms.md §12.1.1 shows them', () => {
  it('a feed image: collaborators and user_tags as JSON arrays, location_id, alt_text', async () => {
    const img = mediaFile('image');
    await publish({
      platform: 'instagram', type: 'feed', caption: 'Team day', media: [img],
      options: { collaborators: ['natgeo', 'nasa.gov'], location_id: '110843418940484', user_tags: [{ username: 'natgeo', x: 0.5, y: 1 }], alt_text: 'Five people on a pier' },
    });
    expect(created()).toEqual([
      {
        image_url: img.publicUrl, caption: 'Team day', collaborators: '["natgeo","nasa.gov"]', location_id: '110843418940484',
        user_tags: '[{"username":"natgeo","x":0.5,"y":1}]', alt_text: 'Five people on a pier',
      },
    ]);
    const [post] = s.state.posts;
    expect(post!.body.options).toEqual({ collaborators: ['natgeo', 'nasa.gov'], location_id: '110843418940484', user_tags: [{ username: 'natgeo', x: 0.5, y: 1 }], alt_text: 'Five people on a pier' });
  });

  it('a reel: share_to_feed as given, cover_url, collaborators, user tags without positions', async () => {
    const v = mediaFile('video');
    await publish({
      platform: 'instagram', type: 'reels', caption: 'r', media: [v],
      options: { share_to_feed: false, cover_url: 'https://cdn.example.com/cover.jpg', collaborators: ['natgeo'], user_tags: [{ username: 'nasa' }] },
    });
    expect(created()).toEqual([
      { media_type: 'REELS', video_url: v.publicUrl, caption: 'r', share_to_feed: 'false', cover_url: 'https://cdn.example.com/cover.jpg', collaborators: '["natgeo"]', user_tags: '[{"username":"nasa"}]' },
    ]);
    expect(s.state.posts[0]!.body.options).toEqual({ share_to_feed: false, cover_url: 'https://cdn.example.com/cover.jpg', collaborators: ['natgeo'], user_tags: [{ username: 'nasa' }] });
  });

  it('a feed video is a reel shared to the feed; thumb_offset travels as a string', async () => {
    const v = mediaFile('video');
    await publish({ platform: 'instagram', type: 'feed', caption: 'clip', media: [v], options: { thumb_offset: 1500, location_id: '7' } });
    expect(created()).toEqual([{ media_type: 'REELS', video_url: v.publicUrl, caption: 'clip', share_to_feed: 'true', thumb_offset: '1500', location_id: '7' }]);
    expect(s.state.posts[0]!.body.options).toEqual({ share_to_feed: true, thumb_offset: 1500, location_id: '7' });
  });

  it('a carousel: tags and alt texts on their image children, collaborators and location on the carousel container', async () => {
    const media = [mediaFile('image'), mediaFile('video'), mediaFile('image')];
    await publish({
      platform: 'instagram', type: 'feed', caption: 'three', media,
      options: {
        collaborators: ['natgeo'], location_id: '42',
        user_tags: [{ username: 'a.b', x: 0.1, y: 0.2, media_index: 2 }, { username: 'c_d', x: 0, y: 0 }, { username: 'e', x: 1, y: 1, media_index: 2 }],
        alt_text: ['first', null, 'third'],
      },
    });
    const [c0, c1, c2, parent] = created();
    expect(c0).toEqual({ image_url: media[0]!.publicUrl, is_carousel_item: 'true', user_tags: '[{"username":"c_d","x":0,"y":0}]', alt_text: 'first' });
    expect(c1).toEqual({ media_type: 'VIDEO', video_url: media[1]!.publicUrl, is_carousel_item: 'true' });
    expect(c2).toEqual({ image_url: media[2]!.publicUrl, is_carousel_item: 'true', user_tags: '[{"username":"a.b","x":0.1,"y":0.2},{"username":"e","x":1,"y":1}]', alt_text: 'third' });
    expect(parent).toMatchObject({ media_type: 'CAROUSEL', caption: 'three', collaborators: '["natgeo"]', location_id: '42' });
    expect(Object.keys(parent!).sort()).toEqual(['caption', 'children', 'collaborators', 'location_id', 'media_type']);
    const body = s.state.posts[0]!.body;
    expect(body.options).toEqual({ collaborators: ['natgeo'], location_id: '42' });
    expect(body.children_options).toEqual([{ user_tags: [{ username: 'c_d', x: 0, y: 0 }], alt_text: 'first' }, {}, { user_tags: [{ username: 'a.b', x: 0.1, y: 0.2 }, { username: 'e', x: 1, y: 1 }], alt_text: 'third' }]);
  });

  it('stories: each story gets its own tags (positions optional); nothing else', async () => {
    const media = [mediaFile('image'), mediaFile('video')];
    await publish({ platform: 'instagram', type: 'story', media, options: { user_tags: [{ username: 'one', media_index: 1 }, { username: 'two', x: 0.3, y: 0.4 }] } });
    expect(created()).toEqual([
      { media_type: 'STORIES', image_url: media[0]!.publicUrl, user_tags: '[{"username":"two","x":0.3,"y":0.4}]' },
      { media_type: 'STORIES', video_url: media[1]!.publicUrl, user_tags: '[{"username":"one"}]' },
    ]);
  });

  it('without options the requests are exactly those of before (reels shared to the feed)', async () => {
    const v = mediaFile('video');
    await publish({ platform: 'instagram', type: 'reels', caption: 'r', media: [v] });
    expect(created()).toEqual([{ media_type: 'REELS', video_url: v.publicUrl, caption: 'r', share_to_feed: 'true' }]);
    expect(s.state.posts[0]!.body.options).toEqual({ share_to_feed: true });
  });
});

describe('the simulator refuses what Instagram refuses, and the target fails with its words', () => {
  // The daemon refuses these when the post is accepted; here they go straight to the adapter, as if a rule slipped.
  it('a fourth collaborator', async () => {
    const err = await failure({ platform: 'instagram', type: 'feed', media: [mediaFile('image')], options: { collaborators: ['a', 'b', 'c', 'd'] } });
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^Instagram: Invalid parameter: a post may have at most 3 collaborators\. You can invite up to 3 collaborators\. \(code 100, fbtrace_id /);
    expect(s.state.posts).toHaveLength(0);
  });

  it('a tag position outside 0..1, and a tag on an image without one', async () => {
    let err = await failure({ platform: 'instagram', type: 'feed', media: [mediaFile('image')], options: { user_tags: [{ username: 'a', x: 1.5, y: 0 }] } });
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^Instagram: Invalid parameter: user_tags x must be a float between 0\.0 and 1\.0\. \(code 100/);
    err = await failure({ platform: 'instagram', type: 'feed', media: [mediaFile('image')], options: { user_tags: [{ username: 'a' }] } });
    expect(err.message).toMatch(/a user tag on an image needs username, x and y/);
  });

  it('a bad thumb_offset (1/2207057) fails permanently instead of being retried', async () => {
    const err = await failure({ platform: 'instagram', type: 'reels', media: [mediaFile('video')], options: { thumb_offset: -5 } });
    expect(err).toBeInstanceOf(PermanentError);
    expect((err as PermanentError).platformCode).toBe('1/2207057');
  });

  it('a location_id that is no Page id', async () => {
    const err = await failure({ platform: 'instagram', type: 'feed', media: [mediaFile('image')], options: { location_id: 'paris' } });
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^Instagram: Invalid parameter: location_id\. INSTAGRAM_PLATFORM_API__INVALID_LOCATION_ID \(code 100/);
  });

  it('parameters on containers that do not take them (raw requests, as another client might send)', async () => {
    const create = async (params: Record<string, string>) => {
      const res = await fetch(`${s.baseUrl('graph.instagram.com')}/v25.0/instagram-acct/media`, {
        method: 'POST',
        body: new URLSearchParams({ access_token: 'sandbox_at_test', ...params }),
      });
      return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
    };
    const img = 'https://cdn.example.com/a.jpg';
    const vid = 'https://cdn.example.com/a.mp4';
    expect(await create({ media_type: 'STORIES', image_url: img, collaborators: '["a"]' })).toEqual({ status: 400, message: 'Param collaborators is not supported for stories.' });
    expect(await create({ image_url: img, share_to_feed: 'true' })).toEqual({ status: 400, message: 'Param share_to_feed is only supported for REELS.' });
    expect(await create({ image_url: img, cover_url: img })).toEqual({ status: 400, message: 'Param cover_url is only supported for REELS.' });
    expect(await create({ media_type: 'REELS', video_url: vid, alt_text: 'x' })).toEqual({ status: 400, message: 'Param alt_text is only supported for images.' });
    expect(await create({ image_url: img, is_carousel_item: 'true', location_id: '1' })).toEqual({ status: 400, message: 'Param location_id is not supported on images or videos in carousels.' });
    expect(await create({ image_url: img, is_carousel_item: 'true', collaborators: 'a,b' })).toEqual({ status: 400, message: 'param collaborators is not allowed on carousel items.' });
    expect(await create({ image_url: img, user_tags: 'natgeo' })).toEqual({ status: 400, message: 'Invalid parameter: user_tags must be a JSON array of {username, x, y}.' });
    expect(await create({ image_url: img, alt_text: 'x'.repeat(1001) })).toEqual({ status: 400, message: 'Param alt_text must be at most 1000 characters long.' });
    // What Instagram takes: comma-separated collaborators too, and positions as floats.
    expect((await create({ image_url: img, collaborators: 'a,b,c', user_tags: '[{"username":"a","x":0.25,"y":0.75}]' })).status).toBe(200);
  });
});
