/**
 * Reads the tags of a fetched HTML page in one forward pass, for the few fields the daemon
 * takes from pages (link cards, Google Drive's download warning). Regexes such as
 * `<meta\b[^>]*>` restart at every opening the page has and run to its end when no `>`
 * follows, so 50,000 unclosed `<meta ` openings (600 KB) held the event loop for minutes.
 * Here a tag's end is searched once, the scan resumes after it, and a tag that never closes
 * ends the scan: every character is looked at a bounded number of times. `work` counts the
 * characters visited so tests can check the bound.
 */

export interface HtmlTag {
  /** Lowercase, `/` first for an end tag (`/form`). */
  name: string;
  attrs: Map<string, string>;
  /** Where its `<` is, and the index after its `>`. */
  start: number;
  end: number;
}

export interface TagScan {
  tags: HtmlTag[];
  /** Characters visited: at most three times the page's length. */
  work: number;
}

/** At most this many tags are read by default; a page with more is read up to there. */
export const MAX_TAGS = 5_000;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
const isNameEnd = (c: number) => isSpace(c) || c === 0x2f /* / */ || c === 0x3e /* > */ || Number.isNaN(c);

/** Whether `html` at `at` holds `name` (lowercase ASCII) case-insensitively, followed by the end of a tag name. */
function tagNameAt(html: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    if ((html.charCodeAt(at + i) | 0x20) !== name.charCodeAt(i)) return false;
  }
  return isNameEnd(html.charCodeAt(at + name.length));
}

/** The attributes of a tag's inside (between its name and `>`), names lowercased; one pass, the first value of a name wins. */
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
 * The tags named `names` (lowercase; `/x` for x's end tag) in document order, at most
 * `maxTags` of them. Attribute values are raw (entities not decoded).
 */
export function scanTags(html: string, names: readonly string[], maxTags = MAX_TAGS): TagScan {
  const tags: HtmlTag[] = [];
  let work = 0;
  let at = 0;
  while (tags.length < maxTags) {
    const lt = html.indexOf('<', at);
    if (lt === -1) break;
    work += lt - at + 1;
    const name = names.find((n) => tagNameAt(html, lt + 1, n));
    if (name === undefined) {
      at = lt + 1;
      continue;
    }
    const gt = html.indexOf('>', lt);
    if (gt === -1) break; // no tag closes after here: nothing more to read
    const attrs = tagAttributes(html.slice(lt + 1 + name.length, gt));
    work += 2 * (gt - lt);
    tags.push({ name, attrs, start: lt, end: gt + 1 });
    at = gt + 1;
  }
  return { tags, work };
}
