import { describe, expect, it } from 'vitest';
import { scanPageMeta } from '../../../src/platforms/bluesky/page-meta';
import { MAX_TAGS, tagAttributes } from '../../../src/util/html-tags';

describe('scanPageMeta', () => {
  it('reads Open Graph, Twitter and description tags in document order, and the title as a fallback', () => {
    const html =
      '<html><head><TITLE>Fallback</TITLE><meta charset=utf-8><meta name="twitter:title" content="Tw">' +
      "<META property='og:title' content='OG'><meta content=\"Desserts\" name=description /><meta property=og:image content=/og.jpg></head>";
    expect(scanPageMeta(html)).toMatchObject({ title: 'Tw', description: 'Desserts', image: '/og.jpg' });
    expect(scanPageMeta('<head><title lang="fr">Crème &amp; Co</title><meta name="description" content=""></head>')).toMatchObject({ title: 'Crème &amp; Co', description: null, image: null });
    // A <title> that never closes is no title; a later one that does is.
    expect(scanPageMeta('<title>one<title>two</title>').title).toBe('two');
    expect(scanPageMeta('<metadata name="og:title" content="no"><meta\tname="og:title"\ncontent="yes">').title).toBe('yes');
  });

  it('reads attributes quoted, unquoted and bare, names in any case, the first of a name winning', () => {
    expect([...tagAttributes(' Name="a" content=b c  =  \'d e\' disabled name="z" /')]).toEqual([
      ['name', 'a'],
      ['content', 'b'],
      ['c', 'd e'],
      ['disabled', ''],
    ]);
  });

  it('visits each character of 600 KB of unclosed `<meta ` a bounded number of times: twice the page, twice the work', () => {
    const page = (n: number) => '<html><head>' + '<meta '.repeat(n);
    const small = scanPageMeta(page(100_000)); // 600 KB
    const large = scanPageMeta(page(200_000)); // 1.2 MB
    expect(small).toMatchObject({ title: null, description: null, image: null });
    expect(small.work).toBeLessThanOrEqual(3 * page(100_000).length);
    expect(large.work / small.work).toBeLessThan(2.1);
  });

  it('stays linear on the other shapes that made the regexes backtrack: closed tags by the thousand, open titles, endless attributes', () => {
    const shapes: [string, (n: number) => string][] = [
      ['<title without >', (n) => '<title '.repeat(n)],
      ['<title> without its end', (n) => '<title>x'.repeat(n)],
      ['one meta tag of endless attributes', (n) => '<meta ' + 'name = '.repeat(n) + '>'],
      ['unterminated quotes', (n) => '<meta content="' + ' x'.repeat(n)],
      ['closed meta tags past the tag cap', (n) => '<meta name=a content=b>'.repeat(n)],
    ];
    for (const [name, make] of shapes) {
      const a = make(50_000);
      const b = make(100_000);
      const wa = scanPageMeta(a).work;
      const wb = scanPageMeta(b).work;
      expect(wa, name).toBeLessThanOrEqual(3 * a.length);
      expect(wb, name).toBeLessThanOrEqual(3 * b.length);
      if (wa > 0) expect(wb / wa, name).toBeLessThan(2.1);
    }
    expect(scanPageMeta('<meta name=a content=b>'.repeat(MAX_TAGS + 10) + '<meta property="og:title" content="late">').title).toBeNull();
  });
});
