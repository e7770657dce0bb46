/**
 * Rich-text facets of a Bluesky post (app.bsky.richtext.facet): links, mentions and
 * hashtags, each a UTF-8 byte range of the text (byteStart inclusive, byteEnd exclusive),
 * so text with emoji and accents is annotated where the app shows it.
 */

export type FacetFeature =
  | { $type: 'app.bsky.richtext.facet#link'; uri: string }
  | { $type: 'app.bsky.richtext.facet#mention'; did: string }
  | { $type: 'app.bsky.richtext.facet#tag'; tag: string };

export interface Facet {
  $type: 'app.bsky.richtext.facet';
  index: { byteStart: number; byteEnd: number };
  features: FacetFeature[];
}

/** What was found before mentions are resolved: a handle still to turn into a DID. */
export type FoundFacet =
  | { kind: 'link'; start: number; end: number; uri: string }
  | { kind: 'mention'; start: number; end: number; handle: string }
  | { kind: 'tag'; start: number; end: number; tag: string };

const encoder = new TextEncoder();
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const graphemeCount = (s: string) => [...segmenter.segment(s)].length;
const byteOffset = (text: string, utf16: number) => encoder.encode(text.slice(0, utf16)).length;

/** A domain handle (atproto.com/specs/handle): labels of letters, digits and hyphens, a TLD not starting with a digit. */
export const HANDLE = /^([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?$/;

const MENTION = /(^|\s|\()@([a-zA-Z0-9.-]+)(\b)/g;
const URL_RE = /(^|\s|\()(https?:\/\/[^\s<>"]+)/gi;
// A tag: '#' (or the full-width '＃') then the characters up to a space or an invisible separator (soft hyphen, word joiner, zero-width space/joiners).
const TAG = /(^|\s)[#＃](\S+)/gu;
const INVISIBLE = ['\u00AD', '\u2060', '\u200A', '\u200B', '\u200C', '\u200D', '\u20E2'];
const TRAILING_PUNCTUATION = /[.,;:!?)\]}'"]/;
const PUNCTUATION = /\p{P}/u;

/**
 * `s` without the trailing characters `strip` matches, walking back once. Unlike
 * `s.replace(/[…]+$/, '')`, which tries the class again from every character of a long run
 * (quadratic: 40,000 dots in a caption took a second), this is linear.
 */
function trimEndWhile(s: string, strip: RegExp): string {
  let end = s.length;
  while (end > 0) {
    const low = s.charCodeAt(end - 1);
    // A low surrogate: test the whole code point.
    const width = low >= 0xdc00 && low <= 0xdfff && end > 1 ? 2 : 1;
    if (!strip.test(s.slice(end - width, end))) break;
    end -= width;
  }
  return s.slice(0, end);
}

/** Links, mentions and tags of `text`, as UTF-8 byte ranges, in text order. */
export function findFacets(text: string): FoundFacet[] {
  const out: FoundFacet[] = [];
  for (const m of text.matchAll(MENTION)) {
    const handle = trimEndWhile(m[2]!, /[.-]/);
    if (!HANDLE.test(handle)) continue;
    const start = m.index! + m[1]!.length;
    out.push({ kind: 'mention', start: byteOffset(text, start), end: byteOffset(text, start + 1 + handle.length), handle: handle.toLowerCase() });
  }
  for (const m of text.matchAll(URL_RE)) {
    let uri = m[2]!;
    // A closing parenthesis belongs to the link only when the link opened one.
    uri = trimEndWhile(uri, TRAILING_PUNCTUATION);
    if (m[2]!.slice(uri.length).startsWith(')') && uri.includes('(')) uri += ')';
    try {
      new URL(uri);
    } catch {
      continue;
    }
    const start = m.index! + m[1]!.length;
    out.push({ kind: 'link', start: byteOffset(text, start), end: byteOffset(text, start + uri.length), uri });
  }
  for (const m of text.matchAll(TAG)) {
    let raw = m[2]!;
    const cut = Math.min(...INVISIBLE.map((c) => raw.indexOf(c)).filter((i) => i >= 0), raw.length);
    raw = raw.slice(0, cut);
    if (raw.startsWith('\ufe0f')) continue;
    // Trailing punctuation is not part of the tag; a tag of digits alone is not a tag.
    const tag = trimEndWhile(raw, PUNCTUATION);
    if (tag.length === 0 || !/[^\d\p{P}]/u.test(tag) || graphemeCount(tag) > 64) continue;
    const start = m.index! + m[1]!.length;
    out.push({ kind: 'tag', start: byteOffset(text, start), end: byteOffset(text, start + 1 + tag.length), tag });
  }
  // A link's own #fragment or @ is not a tag or mention of its own.
  const links = out.filter((f) => f.kind === 'link');
  return out
    .filter((f) => f.kind === 'link' || !links.some((l) => f.start >= l.start && f.start < l.end))
    .sort((a, b) => a.start - b.start);
}

/** The facets of `text`, mentions resolved to DIDs by `resolve` (a handle it cannot resolve stays plain text, as in the Bluesky app). */
export async function buildFacets(text: string, resolve: (handle: string) => Promise<string | null>): Promise<Facet[]> {
  const facets: Facet[] = [];
  for (const f of findFacets(text)) {
    const index = { byteStart: f.start, byteEnd: f.end };
    const $type = 'app.bsky.richtext.facet' as const;
    if (f.kind === 'link') facets.push({ $type, index, features: [{ $type: 'app.bsky.richtext.facet#link', uri: f.uri }] });
    else if (f.kind === 'tag') facets.push({ $type, index, features: [{ $type: 'app.bsky.richtext.facet#tag', tag: f.tag }] });
    else {
      const did = await resolve(f.handle);
      if (did) facets.push({ $type, index, features: [{ $type: 'app.bsky.richtext.facet#mention', did }] });
    }
  }
  return facets;
}

/** The first link of the text (the one a link card shows), or null. */
export function firstLink(text: string): string | null {
  const link = findFacets(text).find((f) => f.kind === 'link');
  return link && link.kind === 'link' ? link.uri : null;
}
