/**
 * How the simulator reads a commentary, as LinkedIn's little-text parser does: `\x` is a
 * literal x; `{hashtag|\#|word}` reads `#word`; `@[Name](urn:li:organization:N)` is a
 * mention reading `@Name`; any other reserved character is markup that is not shown (an
 * unescaped `(` or `@` loses text, which is what escaping prevents).
 */
const RESERVED = new Set(['\\', '|', '{', '}', '@', '[', ']', '(', ')', '<', '>', '#', '*', '_', '~']);

export interface ReadCommentary {
  text: string;
  mentions: string[];
  hashtags: string[];
}

export function readCommentary(commentary: string): ReadCommentary {
  let text = '';
  const mentions: string[] = [];
  const hashtags: string[] = [];
  for (let i = 0; i < commentary.length; i++) {
    const c = commentary[i]!;
    if (c === '\\' && i + 1 < commentary.length) {
      text += commentary[++i];
      continue;
    }
    if (c === '{') {
      const m = /^\{hashtag\|\\#\|([\p{L}\p{N}]+)\}/u.exec(commentary.slice(i));
      if (m) {
        text += `#${m[1]}`;
        hashtags.push(m[1]!);
        i += m[0].length - 1;
        continue;
      }
    }
    if (c === '@') {
      const m = /^@\[((?:\\.|[^\]\\])*)\]\((urn:li:(?:organization|person):[A-Za-z0-9_-]+)\)/.exec(commentary.slice(i));
      if (m) {
        text += `@${m[1]!.replace(/\\(.)/g, '$1')}`;
        mentions.push(m[2]!);
        i += m[0].length - 1;
        continue;
      }
    }
    if (RESERVED.has(c)) continue;
    text += c;
  }
  return { text, mentions, hashtags };
}
