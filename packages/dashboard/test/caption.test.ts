import { captionLength } from '@socialpub/core/caption-length';
import { describe, expect, it } from 'vitest';
import { cutIndex, viewCaption } from '../src/lib/caption';
import { counterText, platformName, targetName } from '../src/lib/names';

describe('caption previews', () => {
  it('counts as each network does: an X link is 23, a Threads emoji its UTF-8 bytes, YouTube bytes', () => {
    expect(viewCaption('see https://example.com/a/very/long/path/indeed', 'twitter').length).toBe(4 + 23);
    expect(viewCaption('hi 👋', 'threads').length).toBe(3 + 4);
    expect(viewCaption('é', 'youtube').length).toBe(2);
    expect(viewCaption('é', 'instagram').length).toBe(1);
  });

  it('marks links, mentions and hashtags, keeping the text around them as it is', () => {
    const v = viewCaption('Hi @ana, see https://x.co/p #launch! a#b', 'instagram');
    expect(v.segments.map((s) => [s.kind, s.text])).toEqual([
      ['text', 'Hi '],
      ['mention', '@ana'],
      ['text', ', see '],
      ['link', 'https://x.co/p'],
      ['text', ' '],
      ['hashtag', '#launch'],
      ['text', '! a#b'],
    ]);
    expect(v.segments.map((s) => s.text).join('')).toBe('Hi @ana, see https://x.co/p #launch! a#b');
  });

  it('cuts where the network cuts, by its own counting', () => {
    const text = `${'a'.repeat(270)} 😀😀😀😀😀😀`; // X: 270 + 1 + 6 × 2 = 283
    const cut = cutIndex(text, 'twitter');
    expect(captionLength(text.slice(0, cut), 'x-weighted')).toBeLessThanOrEqual(280);
    expect(captionLength(text.slice(0, cut + 2), 'x-weighted')).toBeGreaterThan(280);
    const v = viewCaption(text, 'twitter');
    expect(v.length).toBe(283);
    expect(v.segments.filter((s) => s.over).map((s) => s.text).join('')).toBe('😀😀');
    // Never inside a surrogate pair.
    expect(text.slice(0, cut).endsWith('\ud83d')).toBe(false);
  });

  it('reports the counts a network limits (Instagram: 5 hashtags)', () => {
    expect(viewCaption('#a #b #c #d #e #f', 'instagram').problems).toEqual(['Instagram accepts at most 5 hashtags (6)']);
    expect(viewCaption('#a #b #c #d #e #f', 'twitter').problems).toEqual([]);
  });

  it('keeps markup as plain text segments (rendered as text, never parsed)', () => {
    const v = viewCaption('<img src=x onerror=alert(1)>', 'twitter');
    expect(v.segments).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>', over: false }]);
  });

  it("says counts in words, never the counting's internal name", () => {
    expect(counterText(257, 280, 'x-weighted')).toBe('257 of 280 characters (a link counts as 23, an emoji or a Chinese, Japanese or Korean character as 2)');
    expect(counterText(2200, 2200, 'characters')).toBe('2,200 of 2,200 characters');
    expect(counterText(300, 280, 'x-weighted')).toMatch(/^300 of 280 characters .* — 20 over the limit: the struck-through part is cut$/);
    for (const c of ['x-weighted', 'threads-utf8-emoji', 'utf16', 'bytes', 'graphemes', 'mastodon', 'characters'] as const) expect(counterText(1, 2, c)).not.toMatch(/weighted|utf|bytes|graphemes|mastodon/i);
  });

  it('names networks and content types as the networks do', () => {
    expect(['linkedin', 'tiktok', 'youtube', 'twitter', 'instagram'].map(platformName)).toEqual(['LinkedIn', 'TikTok', 'YouTube', 'X', 'Instagram']);
    expect(targetName('twitter', 'tweet')).toBe('X post');
    expect(targetName('youtube', 'shorts')).toBe('YouTube Short');
    expect(targetName('instagram', 'reels')).toBe('Instagram reel');
  });
});
