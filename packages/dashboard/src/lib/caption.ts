import { HASHTAG, LINK, MENTION, captionLength } from '@socialpub/core/caption-length';
import { PLATFORM_INFO, type CaptionCounting, type Platform } from '@socialpub/core/platforms';
import { platformName } from './names';

/** One run of a caption as a network shows it: plain text, or a marked link, mention or hashtag. */
export interface Segment {
  kind: 'text' | 'link' | 'mention' | 'hashtag';
  text: string;
  /** Past the network's limit: cut when published (shown struck through). */
  over: boolean;
}

export interface CaptionView {
  length: number;
  max: number;
  counting: CaptionCounting;
  segments: Segment[];
  /** Problems the network's own counts find (hashtags, mentions, links). */
  problems: string[];
}

type Mark = { start: number; end: number; kind: Segment['kind'] };

function marks(text: string): Mark[] {
  const out: Mark[] = [];
  const add = (re: RegExp, kind: Segment['kind']) => {
    for (const m of text.matchAll(new RegExp(re.source, re.flags))) {
      const raw = m[0];
      // The patterns include the character before a hashtag or mention: skip it.
      const lead = kind === 'link' ? 0 : raw.search(kind === 'hashtag' ? /#/ : /@/);
      out.push({ start: (m.index ?? 0) + lead, end: (m.index ?? 0) + raw.length, kind });
    }
  };
  add(LINK, 'link');
  add(MENTION, 'mention');
  add(HASHTAG, 'hashtag');
  out.sort((a, b) => a.start - b.start);
  const kept: Mark[] = [];
  for (const m of out) if (!kept.length || m.start >= kept[kept.length - 1]!.end) kept.push(m);
  return kept;
}

/**
 * Where the network cuts: the UTF-16 index of the longest prefix (whole code points) that
 * its counting keeps within the limit. Binary search over code points (counting is monotonic).
 */
export function cutIndex(text: string, platform: Platform): number {
  const { max, counting } = PLATFORM_INFO[platform].caption;
  if (captionLength(text, counting) <= max) return text.length;
  const points = [...text];
  let lo = 0;
  let hi = points.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (captionLength(points.slice(0, mid).join(''), counting) <= max) lo = mid;
    else hi = mid - 1;
  }
  return points.slice(0, lo).join('').length;
}

/** The caption as `platform` shows it: counted by its rules, marked, and cut where it cuts. */
export function viewCaption(text: string, platform: Platform): CaptionView {
  const info = PLATFORM_INFO[platform].caption;
  const length = captionLength(text, info.counting);
  const cut = length > info.max ? cutIndex(text, platform) : text.length;
  const segments: Segment[] = [];
  const push = (kind: Segment['kind'], from: number, to: number) => {
    if (to <= from) return;
    if (from < cut && to > cut) {
      segments.push({ kind, text: text.slice(from, cut), over: false });
      segments.push({ kind, text: text.slice(cut, to), over: true });
    } else segments.push({ kind, text: text.slice(from, to), over: from >= cut });
  };
  let at = 0;
  const found = marks(text);
  for (const m of found) {
    push('text', at, m.start);
    push(m.kind, m.start, m.end);
    at = m.end;
  }
  push('text', at, text.length);
  const problems: string[] = [];
  const n = (kind: Segment['kind']) => found.filter((m) => m.kind === kind).length;
  if (info.maxHashtags !== undefined && n('hashtag') > info.maxHashtags) problems.push(`${platformName(platform)} accepts at most ${info.maxHashtags} hashtags (${n('hashtag')})`);
  if (info.maxMentions !== undefined && n('mention') > info.maxMentions) problems.push(`${platformName(platform)} accepts at most ${info.maxMentions} mentions (${n('mention')})`);
  if (info.maxLinks !== undefined && n('link') > info.maxLinks) problems.push(`${platformName(platform)} accepts at most ${info.maxLinks} links (${n('link')})`);
  return { length, max: info.max, counting: info.counting, segments, problems };
}

/** The caption a platform of a post uses. */
export function captionFor(post: { caption: string; platform_captions?: Record<string, string> | null }, platform: string): string {
  return post.platform_captions?.[platform] ?? post.caption;
}
