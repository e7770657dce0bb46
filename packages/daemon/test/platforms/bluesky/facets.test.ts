import { RichText } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { buildFacets, findFacets } from '../../../src/platforms/bluesky/facets';

/** Links and tags as @atproto/api's RichText finds them (its detectFacetsWithoutResolution), byte for byte. */

const TEXTS = [
  'plain text, nothing here',
  'Crème brûlée 🍮 https://exemple.fr/crème #dessert',
  'trailing dot https://example.com/a. and #tag! and #tag2?',
  'digits #123 are not a tag, #v2 is',
  'full width ＃タグ and #café au lait',
  'in parens (https://example.com/path) then #end.',
  'query https://example.com/a?b=c&d=e#frag, #after',
  '#first at the start and 👨‍👩‍👧‍👦#not-a-tag-after-emoji',
  'zero width #tag\u200Bafter and soft #hy\u00ADphen',
  '🇫🇷 drapeaux #🎉 #ok',
];

const linksAndTags = (facets: unknown[]) =>
  (facets as Array<{ index: unknown; features: Array<{ $type: string; uri?: string; tag?: string }> }>)
    .filter((f) => f.features[0]!.$type !== 'app.bsky.richtext.facet#mention')
    .map((f) => ({ index: f.index, feature: { ...f.features[0] } }));

describe('facets', () => {
  it.each(TEXTS)('match @atproto/api for %j', async (text) => {
    const rt = new RichText({ text });
    rt.detectFacetsWithoutResolution();
    const theirs = linksAndTags(JSON.parse(JSON.stringify(rt.facets ?? [])) as unknown[]);
    const ours = linksAndTags(await buildFacets(text, async () => null));
    expect(ours).toEqual(theirs);
  });

  it('resolves mentions through the resolver and leaves unknown handles as text', async () => {
    const text = 'hi @Known.example and @unknown.example.';
    const facets = await buildFacets(text, async (h) => (h === 'known.example' ? 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' : null));
    expect(facets).toEqual([{ $type: 'app.bsky.richtext.facet', index: { byteStart: 3, byteEnd: 17 }, features: [{ $type: 'app.bsky.richtext.facet#mention', did: 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa' }] }]);
  });
});

describe('long runs of trailing punctuation', () => {
  it('are trimmed in one pass: 640,000 characters of punctuation in well under 5 s (the regexes took about 1 s at 40,000, so minutes here)', () => {
    const shapes = [(n: number) => `https://a.example/${'.'.repeat(n)}x`, (n: number) => `#a${'!'.repeat(n)}x`, (n: number) => `@a.example${'.'.repeat(n)}-x`];
    for (const make of shapes) {
      // Quadratic work grows 256x from 40,000 to 640,000 characters: linear takes milliseconds,
      // the old trim minutes; 5 s leaves room for a machine under any load.
      const t0 = performance.now();
      findFacets(make(640_000));
      expect(performance.now() - t0, make(3)).toBeLessThan(5_000);
    }
    expect(findFacets('see https://a.example/x... and #tag!!! @a.example..').map((f) => ('uri' in f ? f.uri : 'tag' in f ? f.tag : f.handle))).toEqual(['https://a.example/x', 'tag', 'a.example']);
  });
});
