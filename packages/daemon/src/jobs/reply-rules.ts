import { platformDescription, threadFor, firstCommentFor, type ContentType, type ErrorDetail, type Platform, type PublishRequest } from '@socialpub/core';
import type { PlatformAdapter, ValidationMedia } from '../platforms/adapter';
import { checkTargetRules } from './platform-rules';

export interface ReplyRulesDeps {
  adapters: Map<Platform, PlatformAdapter>;
  publicBaseUrl: string | null;
  /** Describes media URLs as the post's are described (sniffed kinds of prepared files). */
  describe(urls: string[]): ValidationMedia[];
  /** The meta of the user's connection to a platform (per-account limits); absent: the core table's. */
  connectionMeta?(platform: Platform): Record<string, unknown> | null;
}

/** The platform's follow-up rules from its description (commentIsPost: a first comment that is a self-reply follows the caption rules). */
const followUpRulesOf = (platform: Platform) => platformDescription(platform)?.followUps;

/**
 * The platform rules for each thread part (caption and media, as a post of the target's
 * type) and for a first comment that is a reply post. Paths point into the request:
 * `thread.2.caption` (zero-based, as media_urls.0), or `thread.twitter.2.caption` when
 * the thread is given per platform.
 */
export function checkReplyRules(deps: ReplyRulesDeps, request: Pick<PublishRequest, 'thread' | 'first_comment' | 'caption' | 'platform_captions'>, targets: readonly { platform: Platform; type: ContentType }[]): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const t of targets) {
    const followUps = followUpRulesOf(t.platform);
    const name = platformDescription(t.platform)?.name ?? t.platform;
    const adapter = deps.adapters.get(t.platform);
    const connectionMeta = deps.connectionMeta?.(t.platform) ?? null;
    const parts = threadFor(request, t.platform);
    const base = Array.isArray(request.thread) ? 'thread' : `thread.${t.platform}`;
    // A platform checked once per field (a platform with several types checks each type once).
    const key = `${t.platform}.${t.type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const texts = [request.platform_captions?.[t.platform] ?? request.caption];
    parts.forEach((part, i) => {
      const at = `${base}.${i}`;
      const caption = part.caption ?? '';
      const rules = checkTargetRules({
        platform: t.platform,
        type: t.type,
        caption,
        captionPath: `${at}.caption`,
        media: deps.describe(part.media_urls ?? []),
        publicBaseUrl: deps.publicBaseUrl,
        adapter,
        connectionMeta,
      });
      for (const d of rules) issues.push({ ...d, path: d.path.replace(/^media_urls/, `${at}.media_urls`), platform: t.platform, type: t.type });
      // X refuses a post whose text repeats one of the account's (docs/reference/platforms.md §3): a chain must not repeat itself.
      if (followUps?.refusesRepeatedText && caption.trim() !== '' && texts.some((x) => x.normalize('NFC').trim() === caption.normalize('NFC').trim())) {
        issues.push({ path: `${at}.caption`, message: `${name} refuses a post with the same text as another of the account; this part repeats the post or an earlier part`, platform: t.platform, type: t.type });
      }
      texts.push(caption);
    });
    const comment = firstCommentFor(request, t.platform, t.type);
    if (comment !== null && followUps?.commentIsPost) {
      const path = typeof request.first_comment === 'string' ? 'first_comment' : `first_comment.${t.platform}`;
      for (const d of checkTargetRules({ platform: t.platform, type: t.type, caption: comment, captionPath: path, media: [], publicBaseUrl: deps.publicBaseUrl, adapter, connectionMeta })) {
        issues.push({ ...d, platform: t.platform, type: t.type });
      }
      if (followUps?.refusesRepeatedText && texts.some((x) => x.normalize('NFC').trim() === comment.normalize('NFC').trim())) {
        issues.push({ path, message: `${name} refuses a post with the same text as another of the account; the first comment repeats the post or a thread part`, platform: t.platform, type: t.type });
      }
    }
  }
  return issues;
}
