/**
 * A status's length as Mastodon counts it (StatusLengthValidator): grapheme clusters of the
 * content warning and the text together, where every link the server would linkify counts
 * `urlLength` characters whatever its length (the server's characters_reserved_per_url,
 * 23 on Mastodon itself) and a mention of a remote account (`@ana@example.social`) counts
 * only its local part (`@ana`). docs/reference/platforms.md, Mastodon.
 */
export function mastodonLength(text: string, options: { urlLength?: number; spoilerText?: string } = {}): number {
  const urlLength = options.urlLength ?? 23;
  const countable = text.replace(URL, (url) => {
    // Trailing punctuation is not part of a linkified URL (as twitter-text's extractor leaves it out).
    const kept = url.replace(TRAILING, '');
    return 'x'.repeat(urlLength) + url.slice(kept.length);
  }).replace(MENTION, (_all, lead: string, user: string) => `${lead}@${user}`);
  return graphemes(options.spoilerText ?? '') + graphemes(countable);
}

/** http(s) links only: Mastodon linkifies no URL without its scheme. */
const URL = /\bhttps?:\/\/[^\s<>"]+/giu;
const TRAILING = /[.,;:!?'")\]}»”’]+$/u;
/** Account::MENTION_RE: `@user` or `@user@domain`, not inside a word or a URL path. */
const MENTION = /(^|[^\p{L}\p{N}_/@])@([\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}.-]*[\p{L}\p{N}]/gu;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

function graphemes(text: string): number {
  let n = 0;
  for (const _ of segmenter.segment(text)) n++;
  return n;
}
