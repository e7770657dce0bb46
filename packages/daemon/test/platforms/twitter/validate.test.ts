import { describe, expect, it } from 'vitest';
import type { ValidationMedia } from '../../../src/platforms/adapter';
import { tweetWeightedLength, validateTwitter } from '../../../src/platforms/twitter/validate';
import { validateTiktok } from '../../../src/platforms/tiktok/validate';

const img = (extra: Partial<ValidationMedia> = {}): ValidationMedia => ({ url: 'https://x/a.png', kind: 'image', mimeType: 'image/png', size: 1000, prepared: true, ...extra });
const vid = (extra: Partial<ValidationMedia> = {}): ValidationMedia => ({ url: 'https://x/v.mp4', kind: 'video', mimeType: 'video/mp4', size: 1000, prepared: true, ...extra });
const tw = (caption: string, media: ValidationMedia[] = []) => validateTwitter({ platform: 'twitter', type: 'tweet', caption, media, publicBaseUrl: null });

describe('X weighted length', () => {
  it('counts every URL as 23, CJK and emoji as 2, after NFC', () => {
    expect(tweetWeightedLength('a https://example.com/a/very/long/path/that/goes/on')).toBe(2 + 23);
    expect(tweetWeightedLength('日本')).toBe(4);
    expect(tweetWeightedLength('👨‍👩‍👧‍👦')).toBe(2);
    // "é" as e + combining accent is one character after NFC.
    expect(tweetWeightedLength('e\u0301')).toBe(1);
    expect(tweetWeightedLength('x'.repeat(280))).toBe(280);
  });
});

describe('X validation', () => {
  it('accepts text, up to four images, or a video', () => {
    expect(tw('hi')).toEqual([]);
    expect(tw('', [img(), img(), img(), img()])).toEqual([]);
    expect(tw('', [vid({ durationSec: 30 })])).toEqual([]);
  });

  it('needs text or media and at most one cashtag', () => {
    expect(tw('  ')).toEqual([{ path: 'caption', message: 'An X post needs text or media' }]);
    expect(tw('$AAPL and $MSFT')).toEqual([{ path: 'caption', message: 'X allows at most one cashtag ($TICKER) per post' }]);
  });

  it('takes a GIF alone and checks sizes, formats and video duration', () => {
    expect(tw('', [img({ url: 'https://x/a.gif', mimeType: 'image/gif' }), img()])).toEqual([{ path: 'media_urls', message: 'An X post takes an animated GIF alone, without other media' }]);
    expect(tw('', [img({ size: 6 * 1024 * 1024 })])).toEqual([{ path: 'media_urls.0', message: 'X takes images up to 5 MB; this one is 6 MB' }]);
    expect(tw('', [img({ url: 'https://x/a.gif', mimeType: 'image/gif', size: 14 * 1024 * 1024 })])).toEqual([]);
    expect(tw('', [img({ mimeType: 'image/tiff' })])).toEqual([{ path: 'media_urls.0', message: 'X takes JPEG, PNG, GIF or WEBP images, not image/tiff' }]);
    expect(tw('', [vid({ durationSec: 141 })])).toEqual([{ path: 'media_urls.0', message: 'X takes videos of 0.5 to 140 seconds; this one lasts 141 s' }]);
    expect(tw('', [vid({ size: 600 * 1024 * 1024 })])).toEqual([{ path: 'media_urls.0', message: 'X takes videos up to 512 MB; this one is 600 MB' }]);
  });
});

describe('TikTok validation', () => {
  const tt = (media: ValidationMedia[]) => validateTiktok({ platform: 'tiktok', type: 'video', caption: 'c', media, publicBaseUrl: null });
  it('checks the one video\'s format, duration and dimensions', () => {
    expect(tt([vid({ width: 1080, height: 1920, durationSec: 60 })])).toEqual([]);
    expect(tt([vid({ mimeType: 'video/x-msvideo' })])).toEqual([{ path: 'media_urls.0', message: 'TikTok takes MP4, WebM or MOV videos, not video/x-msvideo' }]);
    expect(tt([vid({ durationSec: 700 })])).toEqual([{ path: 'media_urls.0', message: 'TikTok takes videos up to 10 minutes (many creators 3); this one lasts 700 s' }]);
    expect(tt([vid({ width: 200, height: 300 })])).toEqual([{ path: 'media_urls.0', message: 'TikTok takes videos from 360 to 4096 pixels on each side; this one is 200×300' }]);
  });
});
