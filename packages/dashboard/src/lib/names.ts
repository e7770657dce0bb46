import { CONTENT_TYPE_NAMES, platformDescription, type CaptionCounting } from '@socialpub/core/platforms';

/**
 * What the page calls things: the networks' own names ("LinkedIn", "TikTok", "X"), read from
 * each platform's declaration in core (its `name`), and content types as the networks name
 * them. Every screen takes its words from here, never from the API's identifiers.
 */
export function platformName(platform: string): string {
  return platformDescription(platform)?.name ?? platform;
}

export function typeName(type: string): string {
  return (CONTENT_TYPE_NAMES as Record<string, string>)[type] ?? type.replace(/_/g, ' ');
}

/** A target in words: "Instagram story", "X post", "YouTube Short". */
export function targetName(platform: string, type: string): string {
  return `${platformName(platform)} ${typeName(type)}`;
}

/** How a network's count differs from counting letters, in words (nothing when it does not). */
const COUNTING_NOTE: Record<CaptionCounting, string> = {
  characters: '',
  graphemes: '',
  utf16: 'an emoji counts as 2',
  bytes: 'an accented letter counts as 2, an emoji as 4',
  'x-weighted': 'a link counts as 23, an emoji or a Chinese, Japanese or Korean character as 2',
  'threads-utf8-emoji': 'an emoji counts as 4 or more',
  mastodon: 'a link counts as 23',
};

/** A caption's count as a person reads it: "257 of 280 characters (a link counts as 23, …)". */
export function counterText(length: number, max: number, counting: CaptionCounting): string {
  const note = COUNTING_NOTE[counting];
  const over = length > max ? ` — ${(length - max).toLocaleString('en')} over the limit: the struck-through part is cut` : '';
  return `${length.toLocaleString('en')} of ${max.toLocaleString('en')} characters${note ? ` (${note})` : ''}${over}`;
}
