import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFacebookAdapter } from '../../../src/platforms/facebook/adapter';
import { PermanentError } from '../../../src/platforms/errors';
import { context, drive, mediaFile, startSim, type Sim } from '../meta/harness';

const adapter = createFacebookAdapter();
let s: Sim;

beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const publish = (o: Omit<Parameters<typeof context>[1], 'platform' | 'type'>) => drive(s.clock, adapter.publish(context(s, { platform: 'facebook', type: 'feed', ...o })));

describe('platform_options.facebook reach the page requests as docs/reference/platforms.md §12.2 shows them', () => {
  it('link makes the link post (over the caption\'s first URL); place goes along', async () => {
    await publish({ caption: 'See https://example.com/other', options: { link: 'https://example.com/launch', place: '110843418940484' } });
    expect(s.requests('/page1/feed')[0]!.params).toEqual({ message: 'See https://example.com/other', link: 'https://example.com/launch', place: '110843418940484', fields: 'id,permalink_url' });
    expect(s.state.posts[0]!.kind).toBe('link');
    expect(s.state.posts[0]!.body).toEqual({ message: 'See https://example.com/other', link: 'https://example.com/launch', media: [], options: { place: '110843418940484' } });
  });

  it('place on a photo (multipart field) and on a multi-photo feed post', async () => {
    await publish({ caption: 'pic', media: [mediaFile('image')], options: { place: '12' } });
    expect(s.requests('/page1/photos')[0]!.params).toEqual({ message: 'pic', place: '12' });
    expect(s.state.posts[0]!.body).toMatchObject({ message: 'pic', options: { place: '12' } });

    await publish({ caption: 'album', media: [mediaFile('image'), mediaFile('image')], options: { place: '34' } });
    const feed = s.requests('/page1/feed')[0]!.params;
    expect(feed).toMatchObject({ message: 'album', place: '34' });
    expect(JSON.parse(feed.attached_media!)).toHaveLength(2);
    // The unpublished photos themselves carry no place.
    expect(s.requests('/page1/photos').slice(1).map((r) => r.params)).toEqual([{ published: 'false' }, { published: 'false' }]);
  });

  it('a place that is no Page id is refused by the simulator, failing the target with its words', async () => {
    const err = await publish({ caption: 'hi', options: { place: 'Berlin' } }).then((): Error => new Error('published, not refused'), (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(PermanentError);
    expect(err.message).toMatch(/^Facebook: \(#100\) Param place must be a valid place ID; "Berlin" is not\. \(code 100/);
    expect(s.state.posts).toHaveLength(0);
  });
});
