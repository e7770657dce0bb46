/** The platforms socialpub publishes to, and what each accepts: derived from their descriptions (platforms/<platform>.ts, listed in platforms/registry.ts). */
import { CONTENT_TYPES, type ContentType } from './platforms/description';
import { PLATFORMS, PLATFORM_INFO, type Platform } from './platforms/registry';

export { COMMENT_TYPES, CONTENT_TYPES, CONTENT_TYPE_NAMES, definePlatform, frameOf, type ContentFrame, type OptionWords, mediaRule, type BrowserConnectField, type CaptionCounting, type ConnectDescription, type ConnectFlag, type ContentType, type FollowUpRules, type MediaKind, type MediaRule, type PlatformDescription, type PlatformInfo, type PublishQuestion } from './platforms/description';
export { listInWords, noTakedownsInWords, platformsInWords, platformsWithInWords, takedownsInWords } from './platforms/prose';
export { PLATFORMS, PLATFORM_INFO, platformDescription, platformDescriptions, platformIds, registerPlatform, type Platform } from './platforms/registry';

export function isPlatform(value: unknown): value is Platform {
  return typeof value === 'string' && (PLATFORMS as readonly string[]).includes(value);
}

export function isContentType(value: unknown): value is ContentType {
  return typeof value === 'string' && (CONTENT_TYPES as readonly string[]).includes(value);
}

export function allowsType(platform: Platform, type: string): type is ContentType {
  return (PLATFORM_INFO[platform].types as readonly string[]).includes(type);
}
