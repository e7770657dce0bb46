import type { LinkedinOptions } from '@socialpub/core';

/**
 * LinkedIn's "little text" format of `commentary`: `\ | { } @ [ ] ( ) < > # * _ ~` are
 * reserved, and an unescaped one is read as markup (text after a stray `(` or `@` may be
 * dropped). Every reserved character of the caption is escaped with a backslash, so the
 * post reads exactly as written; a `#word` becomes a hashtag template that reads `#word`
 * too; a mention becomes `@[Name](urn:li:organization:ID)`.
 */

const RESERVED = /[\\|{}@[\]()<>#*_~]/g;

export const escapeLittleText = (text: string): string => text.replace(RESERVED, (c) => `\\${c}`);

/** `#word` at the start or after white space, the word letters and digits only. */
const HASHTAG = /(^|\s)#([\p{L}\p{N}]+)(?![\p{L}\p{N}_])/gu;

function escapeWithHashtags(text: string): string {
  let out = '';
  let at = 0;
  for (const m of text.matchAll(HASHTAG)) {
    const start = m.index + m[1]!.length;
    out += escapeLittleText(text.slice(at, start)) + `{hashtag|\\#|${m[2]}}`;
    at = start + 1 + m[2]!.length;
  }
  return out + escapeLittleText(text.slice(at));
}

export const organizationUrn = (idOrUrn: string): string => (idOrUrn.startsWith('urn:') ? idOrUrn : `urn:li:organization:${idOrUrn}`);

/** Where each mention's `@<name>` first appears in the caption (-1 when it does not). */
export function mentionPositions(caption: string, mentions: readonly { name: string }[]): number[] {
  const taken: Array<[number, number]> = [];
  return mentions.map((m) => {
    let from = 0;
    for (;;) {
      const i = caption.indexOf(`@${m.name}`, from);
      if (i < 0) return -1;
      const end = i + 1 + m.name.length;
      if (!taken.some(([s, e]) => i < e && end > s)) {
        taken.push([i, end]);
        return i;
      }
      from = i + 1;
    }
  });
}

/** The commentary LinkedIn receives for a caption and its mentions. */
export function toCommentary(caption: string, mentions: LinkedinOptions['mentions'] = []): string {
  const text = caption.normalize('NFC');
  const positions = mentionPositions(text, mentions);
  const spans = mentions
    .map((m, i) => ({ m, at: positions[i]! }))
    .filter((s) => s.at >= 0)
    .sort((a, b) => a.at - b.at);
  let out = '';
  let at = 0;
  for (const { m, at: start } of spans) {
    out += escapeWithHashtags(text.slice(at, start)) + `@[${escapeLittleText(m.name)}](${organizationUrn(m.organization)})`;
    at = start + 1 + m.name.length;
  }
  return out + escapeWithHashtags(text.slice(at));
}

/**
 * The text a reader sees for a commentary: escapes removed, a hashtag template as
 * `#word`, a mention as `@Name`. The simulator renders posts with it and reconcile
 * compares what LinkedIn stored with what was sent.
 */
export function renderLittleText(commentary: string): string {
  let out = '';
  for (let i = 0; i < commentary.length; i++) {
    const c = commentary[i]!;
    if (c === '\\' && i + 1 < commentary.length) {
      out += commentary[++i];
      continue;
    }
    if (c === '{') {
      const m = /^\{hashtag\|\\#\|([^}]*)\}/.exec(commentary.slice(i));
      if (m) {
        out += `#${m[1]}`;
        i += m[0].length - 1;
        continue;
      }
    }
    if (c === '@' && commentary[i + 1] === '[') {
      const m = /^@\[((?:\\.|[^\]\\])*)\]\((urn:li:(?:organization|person):[^)]+)\)/.exec(commentary.slice(i));
      if (m) {
        out += `@${m[1]!.replace(/\\(.)/g, '$1')}`;
        i += m[0].length - 1;
        continue;
      }
    }
    out += c;
  }
  return out;
}
