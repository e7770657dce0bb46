import { mastodonLength } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { checkTargetRules } from '../../../src/jobs/platform-rules';
import type { ValidationMedia } from '../../../src/platforms/adapter';
import { createMastodonAdapter } from '../../../src/platforms/mastodon/adapter';
import { DEFAULT_SERVER_LIMITS } from '../../../src/platforms/mastodon/server-limits';

const adapter = createMastodonAdapter();
const big = { ...DEFAULT_SERVER_LIMITS, characters: 5000, characters_reserved_per_url: 30, max_media_attachments: 6, image_size_limit: 1_000 };
const image = (size: number): ValidationMedia => ({ url: 'https://cdn.example.com/a.jpg', kind: 'image', mimeType: 'image/jpeg', size, prepared: true });

function rules(caption: string, opts: { media?: ValidationMedia[]; options?: Record<string, unknown>; meta?: Record<string, unknown> | null } = {}) {
  return checkTargetRules({ platform: 'mastodon', type: 'post', caption, captionPath: 'caption', media: opts.media ?? [], publicBaseUrl: null, adapter, options: opts.options ?? {}, connectionMeta: opts.meta ?? null });
}

describe('mastodon status length', () => {
  it('counts grapheme clusters, 23 per link whatever its length, and a remote mention by its local part', () => {
    expect(mastodonLength('👍🏽 café')).toBe(6);
    expect(mastodonLength(`see https://example.com/${'a'.repeat(100)}.`)).toBe(4 + 23 + 1);
    expect(mastodonLength('hi @ana@social.example.org')).toBe(7);
    expect(mastodonLength('x', { spoilerText: 'CW: food' })).toBe(9);
    expect(mastodonLength('https://example.com', { urlLength: 30 })).toBe(30);
  });
});

describe('mastodon validation with the server kept with the connection', () => {
  it('a 500-character server and a 5,000-character one judge the same caption differently', () => {
    const caption = 'y'.repeat(600);
    expect(rules(caption)).toEqual([{ path: 'caption', message: 'the Mastodon server takes statuses of at most 500 characters; this one counts 600' }]);
    expect(rules(caption, { meta: { limits: big } })).toEqual([]);
    expect(rules('y'.repeat(5001), { meta: { limits: big } })).toEqual([{ path: 'caption', message: 'the Mastodon server takes statuses of at most 5000 characters; this one counts 5001' }]);
    // The table as the connection states it (what GET /platforms shows).
    expect(adapter.infoFor!({ limits: big }).caption).toEqual({ max: 5000, counting: 'mastodon', urlLength: 30 });
    expect(adapter.infoFor!({ limits: big }).media.post!.max).toBe(6);
  });

  it('counts the content warning with the text, and links at the server\'s characters_reserved_per_url', () => {
    expect(rules('z'.repeat(490), { options: { spoiler_text: 'Spoilers ahead' } })).toEqual([
      { path: 'caption', message: 'the Mastodon server takes statuses of at most 500 characters; this one counts 504 with its content warning (spoiler_text)' },
    ]);
    expect(rules(`${'z'.repeat(4970)} https://e.com`, { meta: { limits: big } })).toEqual([{ path: 'caption', message: 'the Mastodon server takes statuses of at most 5000 characters; this one counts 5001' }]);
  });

  it("refuses an image over the server's size limit, naming the media item", () => {
    expect(rules('pic', { media: [image(800), image(1_200)], meta: { limits: big } })).toEqual([{ path: 'media_urls.1', message: 'the Mastodon server takes images up to 1000 bytes; this one is 1.2 KB' }]);
    expect(rules('pic', { media: [image(17 * 1024 * 1024)] })).toEqual([{ path: 'media_urls.0', message: 'the Mastodon server takes images up to 16 MB; this one is 17 MB' }]);
  });

  it('checks polls and alt texts against the server and the media', () => {
    expect(rules('vote', { options: { poll: { options: ['a', 'b', 'c', 'd', 'e'], expires_in: 600 } } })).toEqual([
      { path: 'platform_options.mastodon.poll.options', message: 'the Mastodon server takes polls of at most 4 options; this one has 5' },
    ]);
    expect(rules('vote', { media: [image(10)], options: { poll: { options: ['a', 'b'], expires_in: 600 } } })).toEqual([
      { path: 'platform_options.mastodon.poll', message: 'a Mastodon status with a poll takes no media (leave media_urls empty or drop the poll)' },
    ]);
    expect(rules('two alts', { media: [image(10)], options: { alt_text: ['a', 'b'] } })).toEqual([{ path: 'platform_options.mastodon.alt_text', message: 'alt_text has 2 entries for 1 media item' }]);
    expect(rules('long alt', { media: [image(10)], options: { alt_text: 'd'.repeat(1501) } })).toEqual([{ path: 'platform_options.mastodon.alt_text', message: 'the Mastodon server takes media descriptions of at most 1500 characters' }]);
    expect(rules('', {})).toEqual([{ path: 'caption', message: 'a Mastodon status needs text or media' }]);
  });
});
