/**
 * A page's card fields (Open Graph and Twitter meta tags, the description meta tag, the
 * `<title>`) read by one forward pass over the HTML. The regexes this replaced
 * (`<meta\b[^>]*>`, `<title[^>]*>`) restarted at every `<meta` a page opened and ran to the
 * end of the page when no `>` followed, so 50,000 unclosed `<meta ` openings (600 KB) held
 * the event loop for minutes. Here every character is looked at a bounded number of times:
 * a tag's end is searched once, the scan resumes after it, and a page whose tag never
 * closes ends the scan. `work` counts the characters visited so tests can check the bound.
 */

export interface PageMeta {
  title: string | null;
  description: string | null;
  image: string | null;
  /** Characters the scan visited (tag searches, tag bodies, attribute values): at most a small multiple of the page's length. */
  work: number;
}

/** At most this many tags are read; a page with more is read up to there (a card needs the head's first few). */
export const MAX_TAGS = 5_000;

const TITLE_KEYS = ['og:title', 'twitter:title'];
const DESCRIPTION_KEYS = ['og:description', 'twitter:description', 'description'];
const IMAGE_KEYS = ['og:image', 'og:image:url', 'twitter:image'];

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isNameEnd = (c: number) => isSpace(c) || c === 0x2f /* / */ || c === 0x3e /* > */ || Number.isNaN(c);

/** Whether `html` at `at` holds `name` (lowercase ASCII) case-insensitively, followed by the end of a tag name. */
function tagNameAt(html: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    if ((html.charCodeAt(at + i) | 0x20) !== name.charCodeAt(i)) return false;
  }
  return isNameEnd(html.charCodeAt(at + name.length));
}

/** The attributes of a tag's inside (between its name and `>`), names lowercased; one pass, first value of a name wins. */
export function tagAttributes(inside: string): Map<string, string> {
  const out = new Map<string, string>();
  let i = 0;
  const n = inside.length;
  while (i < n) {
    while (i < n && (isSpace(inside.charCodeAt(i)) || inside.charCodeAt(i) === 0x2f)) i++;
    const nameStart = i;
    while (i < n && !isSpace(inside.charCodeAt(i)) && inside[i] !== '=' && inside[i] !== '/') i++;
    const name = inside.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(inside.charCodeAt(i))) i++;
    let value = '';
    if (inside[i] === '=') {
      i++;
      while (i < n && isSpace(inside.charCodeAt(i))) i++;
      const quote = inside[i];
      if (quote === '"' || quote === "'") {
        const end = inside.indexOf(quote, i + 1);
        const stop = end === -1 ? n : end;
        value = inside.slice(i + 1, stop);
        i = stop + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(inside.charCodeAt(i))) i++;
        value = inside.slice(start, i);
      }
    }
    if (name && !out.has(name)) out.set(name, value);
    if (i === nameStart) i++; // a lone '=' or quote: step over it
  }
  return out;
}

/**
 * The first title, description and image a page's meta tags give (in document order), else
 * its first closed `<title>`'s text for the title; raw, entities not decoded.
 */
export function scanPageMeta(html: string): PageMeta {
  const groups = { title: TITLE_KEYS, description: DESCRIPTION_KEYS, image: IMAGE_KEYS };
  const found: Record<keyof typeof groups, string | null> = { title: null, description: null, image: null };
  let title: string | null = null;
  let work = 0;
  let tags = 0;
  let at = 0;
  while (tags < MAX_TAGS) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    work += lt - at + 1;
    const isMeta = tagNameAt(html, lt + 1, 'meta');
    const isTitle = !isMeta && title === null && tagNameAt(html, lt + 1, 'title');
    if (!isMeta && !isTitle) {
      at = lt + 1;
      continue;
    }
    tags++;
    const gt = html.indexOf('>', lt);
    if (gt === -1) break; // no tag closes after here: nothing more to read
    work += gt - lt;
    if (isMeta) {
      const attrs = tagAttributes(html.slice(lt + 5, gt));
      work += gt - lt;
      const key = (attrs.get('property') || attrs.get('name'))?.toLowerCase();
      const content = attrs.get('content');
      if (key && content) {
        for (const g of Object.keys(groups) as (keyof typeof groups)[]) if (found[g] === null && groups[g].includes(key)) found[g] = content;
      }
      at = gt + 1;
    } else {
      // The title's text runs to the next '<' (its closing tag); text with markup in it is no title.
      const close = html.indexOf('<', gt + 1);
      const end = close === -1 ? html.length : close;
      work += end - gt;
      if (close !== -1 && tagNameAt(html, close + 1, '/title')) title = html.slice(gt + 1, close);
      at = end;
    }
  }
  return { title: found.title ?? title, description: found.description, image: found.image, work };
}
