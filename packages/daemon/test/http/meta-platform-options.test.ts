import { FacebookOptionsSchema, InstagramOptionsSchema, ThreadsOptionsSchema } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { createAdapters } from '../../src/platforms/registry';
import { API, errorOf, harness, type Harness } from './harness';

const PUBLISH = `${API}/content/publish`;
const VALIDATE = `${API}/content/validate`;
const SCHEDULED = `${API}/content/scheduled`;
const IMG = 'https://cdn.example.com/a.jpg';
const IMG2 = 'https://cdn.example.com/b.jpg';
const VID = 'https://cdn.example.com/clip.mp4';

const post = (platforms: string[], extra: Record<string, unknown> = {}) => ({ caption: 'Launch day', platforms, scheduled_for: '2026-12-25T10:00:00Z', ...extra });

function setup(): Harness {
  // The real adapters: the option-fit rules are theirs.
  const h = harness({ deps: { adapters: createAdapters() } });
  h.connect(['instagram', 'facebook', 'threads']);
  return h;
}

async function refused(h: Harness, body: unknown, method = 'POST', path = PUBLISH) {
  const res = await h.call(method, path, { body });
  expect(res.status, JSON.stringify(body)).toBe(400);
  const e = await errorOf(res);
  expect(e.code).toBe('invalid_request');
  return e.details ?? [];
}

async function publish(h: Harness, body: unknown): Promise<string> {
  const res = await h.call('POST', PUBLISH, { body });
  if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

const optionsOf = async (h: Harness, id: string) => ((await (await h.call('GET', `${SCHEDULED}?job_id=${id}`)).json()) as { post: { platform_options: unknown } }).post.platform_options;

describe('platform_options for instagram, facebook and threads in POST /content/publish', () => {
  it('stores valid options as given', async () => {
    const h = setup();
    const options = {
      instagram: { collaborators: ['natgeo', 'nasa'], location_id: '110843418940484', user_tags: [{ username: 'natgeo', x: 0.5, y: 0.25 }], alt_text: 'A pier' },
      facebook: { place: '110843418940484' },
      threads: { reply_control: 'mentioned_only', topic_tag: 'Launch', quote_post_id: '1789' },
    };
    const id = await publish(h, post(['instagram', 'facebook', 'threads'], { media_urls: [IMG], platform_options: options }));
    expect(await optionsOf(h, id)).toEqual(options);
    const reel = { instagram: { share_to_feed: false, cover_url: 'https://cdn.example.com/cover.jpg', user_tags: [{ username: 'nasa' }] } };
    const rid = await publish(h, post(['instagram'], { media_urls: [VID], platform_types: { instagram: ['reels'] }, platform_options: reel }));
    expect(await optionsOf(h, rid)).toEqual(reel);
    const link = { facebook: { link: 'https://example.com/launch' }, threads: { link_attachment: 'https://example.com/launch' } };
    expect(await optionsOf(h, await publish(h, post(['facebook', 'threads'], { platform_options: link })))).toEqual(link);
  });

  it('answers 400 naming the field for each value the platform would refuse', async () => {
    const h = setup();
    const cases: [Record<string, unknown>, string][] = [
      [{ instagram: { collaborators: ['a', 'b', 'c', 'd'] } }, 'platform_options.instagram.collaborators'],
      [{ instagram: { collaborators: ['a', 'A'] } }, 'platform_options.instagram.collaborators'],
      [{ instagram: { collaborators: ['@natgeo'] } }, 'platform_options.instagram.collaborators.0'],
      [{ instagram: { location_id: 'Paris' } }, 'platform_options.instagram.location_id'],
      [{ instagram: { user_tags: [{ username: 'a', x: 1.5, y: 0 }] } }, 'platform_options.instagram.user_tags.0.x'],
      [{ instagram: { user_tags: [{ username: 'a', x: 0.5, y: -0.1 }] } }, 'platform_options.instagram.user_tags.0.y'],
      [{ instagram: { user_tags: [{ username: 'a', x: 0.5 }] } }, 'platform_options.instagram.user_tags.0.y'],
      [{ instagram: { user_tags: [{ username: 'a' }] } }, 'platform_options.instagram.user_tags.0.x'],
      [{ instagram: { user_tags: [{ username: 'a', x: 0, y: 0, media_index: 1 }] } }, 'platform_options.instagram.user_tags.0.media_index'],
      [{ instagram: { alt_text: 'x'.repeat(1001) } }, 'platform_options.instagram.alt_text'],
      [{ instagram: { share_to_feed: true } }, 'platform_options.instagram.share_to_feed'],
      [{ instagram: { cover_url: 'https://cdn.example.com/c.jpg' } }, 'platform_options.instagram.cover_url'],
      [{ instagram: { thumb_offset: 10 } }, 'platform_options.instagram.thumb_offset'],
      [{ instagram: { cover_url: 'ftp://x/c.jpg' } }, 'platform_options.instagram.cover_url'],
      [{ instagram: { tags: ['x'] } }, 'platform_options.instagram.tags'],
      [{ facebook: { link: 'not a url' } }, 'platform_options.facebook.link'],
      [{ facebook: { link: 'https://example.com' } }, 'platform_options.facebook.link'],
      [{ facebook: { place: 'Berlin' } }, 'platform_options.facebook.place'],
      [{ threads: { reply_control: 'nobody' } }, 'platform_options.threads.reply_control'],
      [{ threads: { topic_tag: 'a.b' } }, 'platform_options.threads.topic_tag'],
      [{ threads: { topic_tag: 'R&D' } }, 'platform_options.threads.topic_tag'],
      [{ threads: { topic_tag: 'x'.repeat(51) } }, 'platform_options.threads.topic_tag'],
      [{ threads: { topic_tag: '' } }, 'platform_options.threads.topic_tag'],
      [{ threads: { link_attachment: 'https://example.com' } }, 'platform_options.threads.link_attachment'],
      [{ threads: { quote_post_id: 'abc' } }, 'platform_options.threads.quote_post_id'],
    ];
    for (const [platform_options, path] of cases) {
      const details = await refused(h, post(['instagram', 'facebook', 'threads'], { media_urls: [IMG], platform_options }));
      expect(details.map((d) => d.path), JSON.stringify(platform_options)).toContain(path);
    }
    expect(h.store.jobs.list(h.user.id, { status: 'all', limit: 10, after: null }).jobs).toEqual([]);
  });

  it('refuses an option that does not fit the content type or media, with the reason', async () => {
    const h = setup();
    const one = async (body: Record<string, unknown>) => {
      const details = await refused(h, body);
      expect(details).toHaveLength(1);
      return [details[0]!.path, details[0]!.message];
    };
    expect(await one(post(['instagram'], { media_urls: [VID], platform_types: { instagram: ['story'] }, platform_options: { instagram: { collaborators: ['a'] } } }))).toEqual([
      'platform_options.instagram.collaborators',
      'collaborators is not available for stories (feed posts and reels only)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [VID], platform_options: { instagram: { share_to_feed: false } } }))).toEqual([
      'platform_options.instagram.share_to_feed',
      'share_to_feed is not available for a feed video (type reels only; a feed video always appears in the feed)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [VID], platform_types: { instagram: ['reels'] }, platform_options: { instagram: { alt_text: 'x' } } }))).toEqual([
      'platform_options.instagram.alt_text',
      'alt_text is not available for reels (images only)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [VID], platform_types: { instagram: ['reels'] }, platform_options: { instagram: { user_tags: [{ username: 'a', x: 0, y: 0 }] } } }))).toEqual([
      'platform_options.instagram.user_tags.0.x',
      'videos take user tags without x and y (Instagram ignores positions on videos)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [IMG, IMG2], platform_options: { instagram: { alt_text: 'x' } } }))).toEqual([
      'platform_options.instagram.alt_text',
      'a carousel takes alt_text as a list with one entry per media item (null for items without)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [IMG, VID], platform_options: { instagram: { alt_text: ['a', 'b'] } } }))).toEqual([
      'platform_options.instagram.alt_text.1',
      'media item 1 is a video; alt_text is for images only (use null)',
    ]);
    expect(await one(post(['instagram'], { media_urls: [IMG, VID], platform_options: { instagram: { user_tags: [{ username: 'a', media_index: 1 }] } } }))).toEqual([
      'platform_options.instagram.user_tags.0.media_index',
      'media item 1 is a video; Instagram tags users on carousel images only',
    ]);
    expect(await one(post(['instagram'], { media_urls: [VID], platform_options: { instagram: { cover_url: 'https://cdn.example.com/c.jpg', thumb_offset: 5 } } }))).toEqual([
      'platform_options.instagram.thumb_offset',
      'give cover_url or thumb_offset, not both (Instagram ignores thumb_offset when cover_url is set)',
    ]);
    expect(await one(post(['facebook'], { media_urls: [VID], platform_options: { facebook: { place: '1' } } }))).toEqual([
      'platform_options.facebook.place',
      'place is not available for video posts (text, link and photo posts only)',
    ]);
    expect(await one(post(['facebook'], { media_urls: [VID], platform_types: { facebook: ['reels'] }, platform_options: { facebook: { link: 'https://example.com' } } }))).toEqual([
      'platform_options.facebook.link',
      'link is not available for Facebook reels (feed posts only)',
    ]);
    const five = Array.from({ length: 5 }, (_, i) => `https://e${i}.example.com`).join(' ');
    expect(await one(post(['threads'], { caption: five, platform_options: { threads: { link_attachment: 'https://six.example.com' } } }))).toEqual([
      'platform_options.threads.link_attachment',
      'Threads posts may contain at most 5 links, link_attachment included; this one has 6',
    ]);
  });

  it('an option that fits one of the platform\'s content types is accepted (and left out of the others)', async () => {
    const h = setup();
    const both = { platform_types: { instagram: ['feed', 'story'] } };
    await publish(h, post(['instagram'], { media_urls: [IMG], ...both, platform_options: { instagram: { collaborators: ['natgeo'], location_id: '1', alt_text: 'A pier' } } }));
    // ...but a problem inside an option that a target would send still counts.
    const details = await refused(h, post(['instagram'], { media_urls: [IMG], ...both, platform_options: { instagram: { user_tags: [{ username: 'a' }] } } }));
    expect(details.map((d) => [d.path, (d as { type?: string }).type])).toEqual([['platform_options.instagram.user_tags.0.x', 'feed']]);
    // Fits neither: said for each.
    const none = await refused(h, post(['instagram'], { media_urls: [IMG], ...both, platform_options: { instagram: { share_to_feed: true } } }));
    expect(none.map((d) => (d as { type?: string }).type).sort()).toEqual(['feed', 'story']);
  });

  it('/content/validate reports the same problems without storing', async () => {
    const h = setup();
    const res = await h.call('POST', VALIDATE, { body: post(['threads'], { media_urls: [IMG], platform_options: { threads: { link_attachment: 'https://example.com' } } }) });
    const body = (await res.json()) as { valid: boolean; errors: { path: string; message: string }[] };
    expect(body.valid).toBe(false);
    expect(body.errors.map((e) => [e.path, e.message])).toEqual([['platform_options.threads.link_attachment', 'link_attachment is for text posts only (Threads refuses it with media)']]);
    const ok = await h.call('POST', VALIDATE, { body: post(['threads'], { platform_options: { threads: { link_attachment: 'https://example.com' } } }) });
    expect(((await ok.json()) as { valid: boolean }).valid).toBe(true);
  });
});

describe('platform_options for the Meta platforms in PATCH /content/scheduled', () => {
  it('checks edited options against the job\'s content types and media; a valid edit is stored', async () => {
    const h = setup();
    const id = await publish(h, post(['instagram', 'threads'], { media_urls: [IMG] }));
    const patch = (platform_options: unknown) => refused(h, { platform_options }, 'PATCH', `${SCHEDULED}?job_id=${id}`);
    expect((await patch({ instagram: { cover_url: 'https://cdn.example.com/c.jpg' } })).map((d) => d.path)).toEqual(['platform_options.instagram.cover_url']);
    expect((await patch({ instagram: { collaborators: ['a', 'b', 'c', 'd'] } })).map((d) => d.path)).toEqual(['platform_options.instagram.collaborators']);
    expect((await patch({ threads: { link_attachment: 'https://example.com' } })).map((d) => d.path)).toEqual(['platform_options.threads.link_attachment']);
    expect(await optionsOf(h, id)).toEqual({});
    const res = await h.call('PATCH', `${SCHEDULED}?job_id=${id}`, { body: { platform_options: { instagram: { user_tags: [{ username: 'natgeo', x: 0.1, y: 0.9 }] }, threads: { topic_tag: 'News' } } } });
    expect(res.status).toBe(200);
    expect(await optionsOf(h, id)).toEqual({ instagram: { user_tags: [{ username: 'natgeo', x: 0.1, y: 0.9 }] }, threads: { topic_tag: 'News' } });
  });

  it('a caption edit that pushes the links past five with the stored link_attachment is refused', async () => {
    const h = setup();
    const id = await publish(h, post(['threads'], { platform_options: { threads: { link_attachment: 'https://six.example.com' } } }));
    const five = Array.from({ length: 5 }, (_, i) => `https://e${i}.example.com`).join(' ');
    const details = await refused(h, { caption: five }, 'PATCH', `${SCHEDULED}?job_id=${id}`);
    expect(details.map((d) => d.path)).toEqual(['platform_options.threads.link_attachment']);
  });
});

describe('GET /platforms: the Meta platforms\' options as JSON Schema', () => {
  it('carries each schema, generated from the core zod schemas, with the platform rules as descriptions', async () => {
    const h = setup();
    const body = (await (await h.call('GET', `${API}/platforms`)).json()) as { platforms: { platform: string; options: Record<string, unknown> | null }[] };
    type Json = { title: string; additionalProperties: boolean; properties: Record<string, { type?: string; enum?: string[]; maxItems?: number; description?: string; items?: Json & { required?: string[] } }> };
    const of = (p: string) => body.platforms.find((x) => x.platform === p)!.options as unknown as Json;
    const ig = of('instagram');
    expect(ig.title).toBe('InstagramOptions');
    expect(ig.additionalProperties).toBe(false);
    expect(Object.keys(ig.properties)).toEqual(Object.keys(InstagramOptionsSchema.shape));
    expect(ig.properties.collaborators!.maxItems).toBe(3);
    expect(ig.properties.collaborators!.description).toMatch(/not stories/);
    expect(Object.keys(ig.properties.user_tags!.items!.properties)).toEqual(['username', 'x', 'y', 'media_index']);
    expect(ig.properties.user_tags!.items!.required).toEqual(['username']);
    const fb = of('facebook');
    expect(fb.title).toBe('FacebookOptions');
    expect(Object.keys(fb.properties)).toEqual(Object.keys(FacebookOptionsSchema.shape));
    const th = of('threads');
    expect(Object.keys(th.properties)).toEqual(Object.keys(ThreadsOptionsSchema.shape));
    expect(th.properties.reply_control!.enum).toEqual(['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only']);
    expect(th.properties.link_attachment!.description).toMatch(/Text posts \(no media\) only/);
    // The whole document resolves: no reference to a definition left out.
    expect(JSON.stringify(body)).not.toContain('$ref');
  });
});

describe('OpenAPI: the Meta platforms\' options', () => {
  it('names InstagramOptions, FacebookOptions and ThreadsOptions under PlatformOptions', async () => {
    const h = setup();
    const doc = (await (await h.app.request(`${API}/openapi.json`)).json()) as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } };
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.PlatformOptions!.properties!)).toEqual(expect.arrayContaining(['instagram', 'facebook', 'threads']));
    expect(Object.keys(schemas.InstagramOptions!.properties!)).toEqual(Object.keys(InstagramOptionsSchema.shape));
    expect(Object.keys(schemas.FacebookOptions!.properties!)).toEqual(['link', 'place']);
    expect(Object.keys(schemas.ThreadsOptions!.properties!)).toEqual(['reply_control', 'topic_tag', 'link_attachment', 'quote_post_id']);
  });
});
