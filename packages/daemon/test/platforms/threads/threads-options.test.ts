import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createThreadsAdapter } from '../../../src/platforms/threads/adapter';
import { PermanentError } from '../../../src/platforms/errors';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const adapter = createThreadsAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const created = () => s.requests('/threads-acct/threads').map((r) => r.params);
const publish = (o: Omit<Parameters<typeof context>[1], 'platform' | 'type'>) => drive(s.clock, adapter.publish(context(s, { platform: 'threads', type: 'post', ...o })));

describe('platform_options.threads reach the container request as docs/reference/platforms.md §12.4 shows it', () => {
  it('a text post carries reply_control, topic_tag, link_attachment and quote_post_id', async () => {
    const options = { reply_control: 'accounts_you_follow', topic_tag: 'Launch Day', link_attachment: 'https://example.com/notes', quote_post_id: '17890012345678901' };
    const out = await publish({ caption: 'Shipped it', options });
    expect(created()).toEqual([{ media_type: 'TEXT', text: 'Shipped it', ...options }]);
    expect(s.state.posts[0]!.body.options).toEqual(options);
    // Read back as Threads documents it (is_quote_post, quoted_post, link_attachment_url).
    const res = await fetch(`${s.baseUrl('graph.threads.net')}/v1.0/${out.postId}?fields=is_quote_post,quoted_post,link_attachment_url,topic_tag&access_token=sandbox_at_test`);
    expect(await res.json()).toEqual({ id: out.postId, is_quote_post: true, quoted_post: { id: '17890012345678901' }, link_attachment_url: 'https://example.com/notes', topic_tag: 'Launch Day' });
  });

  it('an image post carries the options but never link_attachment; a carousel puts them on its own container only', async () => {
    const img = mediaFile('image');
    await publish({ caption: 'pic', media: [img], options: { reply_control: 'mentioned_only', topic_tag: 'cats' } });
    expect(created()).toEqual([{ media_type: 'IMAGE', image_url: img.publicUrl, text: 'pic', reply_control: 'mentioned_only', topic_tag: 'cats' }]);

    const media = [mediaFile('image'), mediaFile('video')];
    await publish({ caption: 'two', media, options: { reply_control: 'followers_only', quote_post_id: '1' } });
    const [c0, c1, parent] = created().slice(1);
    expect(c0).toEqual({ media_type: 'IMAGE', image_url: media[0]!.publicUrl, is_carousel_item: 'true' });
    expect(c1).toEqual({ media_type: 'VIDEO', video_url: media[1]!.publicUrl, is_carousel_item: 'true' });
    expect(parent).toEqual({ media_type: 'CAROUSEL', children: expect.any(String), text: 'two', reply_control: 'followers_only', quote_post_id: '1' });
  });

  it('without options the request is exactly that of before', async () => {
    await publish({ caption: 'plain' });
    expect(created()).toEqual([{ media_type: 'TEXT', text: 'plain' }]);
    expect(s.state.posts[0]!.body.options).toEqual({});
  });
});

describe('the simulator refuses what Threads refuses, and the target fails with its words', () => {
  const failure = (options: Record<string, unknown>, media = [] as ReturnType<typeof mediaFile>[]) => publish({ caption: 'x', media, options }).then((): Error => new Error('published, not refused'), (e: unknown) => e as Error);

  it('an unknown reply_control, a bad topic_tag, a quote of no post id', async () => {
    let err = await failure({ reply_control: 'nobody' });
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^Threads: Param reply_control must be one of everyone, accounts_you_follow, mentioned_only, parent_post_author_only, followers_only\. \(code 100/);
    err = await failure({ topic_tag: 'a.b' });
    expect(err.message).toMatch(/^Threads: Param topic_tag must not contain periods \(\.\) or ampersands \(&\)\./);
    err = await failure({ topic_tag: 'x'.repeat(51) });
    expect(err.message).toMatch(/^Threads: Param topic_tag must be between 1 and 50 characters long\./);
    err = await failure({ quote_post_id: 'abc' });
    expect(err.message).toMatch(/^Threads: Param quote_post_id "abc" is not a valid Threads media id\./);
    expect(s.state.posts).toHaveLength(0);
  });

  it('link_attachment with media, and a sixth link (raw requests)', async () => {
    const create = async (params: Record<string, string>) => {
      const res = await fetch(`${s.baseUrl('graph.threads.net')}/v1.0/me/threads`, { method: 'POST', body: new URLSearchParams({ access_token: 'sandbox_at_test', ...params }) });
      return { status: res.status, message: ((await res.json()) as { error?: { message: string } }).error?.message };
    };
    expect(await create({ media_type: 'IMAGE', image_url: 'https://cdn.example.com/a.jpg', link_attachment: 'https://example.com' })).toEqual({
      status: 400,
      message: 'Param link_attachment is only supported on TEXT posts.',
    });
    const five = Array.from({ length: 5 }, (_, i) => `https://e${i}.example.com`).join(' ');
    expect((await create({ media_type: 'TEXT', text: five, link_attachment: 'https://six.example.com' })).message).toBe('THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links.');
    expect((await create({ media_type: 'TEXT', text: five, link_attachment: 'https://e0.example.com' })).status).toBe(200);
  });
});
