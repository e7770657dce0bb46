import {
  PublishRequestSchema,
  planTargets,
  type ErrorCode,
  type ErrorDetail,
  type ContentType,
  type Platform,
  type PlannedTarget,
  type PlatformOptions,
  type PublishRequest,
} from '@socialpub/core';
import type { PlatformAdapter, ValidationMedia } from '../platforms/adapter';
import type { MediaLookup } from '../ports/media';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import { issuesToDetails } from '../util/service-error';
import { checkReplyRules } from './reply-rules';
import { keepOptionIssues } from './option-fit';
import { checkTargetRules } from './platform-rules';
import { resolveTiming, type Timing } from './resolve-timing';

export interface PublishCheckDeps {
  store: Store;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  publicBaseUrl: string | null;
}

export type PublishCheck =
  | { ok: true; request: PublishRequest; base: number | null; targets: PlannedTarget[]; timing: Timing }
  | PublishRefusal;

export interface PublishRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  targets: PlannedTarget[];
}

/** The caption a platform gets: its platform_captions entry, else caption. */
export function captionFor(platform: Platform, caption: string, platformCaptions: Record<string, string> | null | undefined) {
  const own = platformCaptions?.[platform];
  return own !== undefined ? { caption: own, path: `platform_captions.${platform}` } : { caption, path: 'caption' };
}

const firstMessage = (d: ErrorDetail[]) => {
  const f = d[0];
  return f ? `${f.path}: ${f.message}` : 'invalid request';
};

/** What the platform rules see of a job: its texts and media, and the targets to check. */
export interface RulesInput {
  caption: string;
  platformCaptions: Record<string, string> | null | undefined;
  media: ValidationMedia[];
  targets: readonly { platform: Platform; type: ContentType }[];
  /** The request's (or the edited job's) platform_options. */
  platformOptions?: PlatformOptions | null;
  /** Whose connections' limits apply (per-account limits, e.g. a Mastodon server's); absent: the core table's. */
  userId?: string;
}

/**
 * The platform rules (core table, then the adapter's own checks) for every target, each
 * detail naming its target. The one rules loop: publish, validate and PATCH all run it.
 */
export function checkRules(deps: PublishCheckDeps, input: RulesInput): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  for (const t of input.targets) {
    const { caption, path } = captionFor(t.platform, input.caption, input.platformCaptions);
    const connectionMeta = input.userId === undefined ? null : (deps.store.connections.get(input.userId, t.platform)?.meta ?? null);
    for (const d of checkTargetRules({
      connectionMeta,
      platform: t.platform,
      type: t.type,
      caption,
      captionPath: path,
      media: input.media,
      publicBaseUrl: deps.publicBaseUrl,
      adapter: deps.adapters.get(t.platform),
      options: (input.platformOptions?.[t.platform as keyof PlatformOptions] as Record<string, unknown> | undefined) ?? {},
    })) {
      issues.push({ ...d, platform: t.platform, type: t.type });
    }
  }
  return keepOptionIssues(issues, input.targets);
}

/** The request body against the publish schema. */
export function parsePublishRequest(body: unknown): { ok: true; request: PublishRequest } | PublishRefusal {
  const parsed = PublishRequestSchema.safeParse(body);
  if (parsed.success) return { ok: true, request: parsed.data };
  const details = issuesToDetails(parsed.error.issues);
  return { ok: false, code: 'invalid_request', message: firstMessage(details), details, targets: [] };
}

/**
 * Every check a publish runs before it stores anything, in order: the schema, the timing
 * rules (core planTargets), the platform rules per target, then the user's connections.
 * A dry run (validate) reports the same result instead of storing.
 */
export function checkPublish(deps: PublishCheckDeps, user: User, body: unknown, now: number): PublishCheck {
  const parsed = parsePublishRequest(body);
  return parsed.ok ? checkPublishRequest(deps, user, parsed.request, now) : parsed;
}

/** The checks after the schema, on a parsed request. */
export function checkPublishRequest(deps: PublishCheckDeps, user: User, request: PublishRequest, now: number): PublishCheck {
  // Zone, queue slot and recurrence first: they decide the times planTargets checks.
  const timed = resolveTiming(deps.store, user.id, request, now);
  if (!timed.ok) return { ok: false, code: timed.code, message: timed.message, details: timed.details, targets: [] };
  const plan = planTargets(timed.timing.input, now);
  if (!plan.ok) return { ok: false, code: 'invalid_request', message: firstMessage(plan.issues), details: plan.issues, targets: [] };

  const media = deps.mediaLookup.describe(user.id, request.media_urls ?? []);
  const ruleIssues = [
    ...checkRules(deps, { caption: request.caption, platformCaptions: request.platform_captions, media, targets: plan.targets, platformOptions: request.platform_options, userId: user.id }),
    ...checkReplyRules(
      { ...deps, describe: (urls) => deps.mediaLookup.describe(user.id, urls), connectionMeta: (platform) => deps.store.connections.get(user.id, platform)?.meta ?? null },
      request,
      plan.targets,
    ),
  ];
  if (ruleIssues.length > 0) {
    return { ok: false, code: 'invalid_request', message: firstMessage(ruleIssues), details: ruleIssues, targets: plan.targets };
  }

  const missing: ErrorDetail[] = [];
  let pageMissing: ErrorDetail | null = null;
  for (const platform of request.platforms) {
    const conn = deps.store.connections.get(user.id, platform);
    if (!conn) {
      missing.push({ path: 'platforms', platform, message: `${platform} is not connected (connect it with: socialpub connect ${platform})` });
    } else if (conn.status !== 'active') {
      missing.push({ path: 'platforms', platform, message: `the ${platform} connection has expired; reconnect it (socialpub connect ${platform})` });
    } else if (platform === 'facebook' && !conn.pageId) {
      pageMissing = { path: 'platforms', platform, message: 'no Facebook page is selected for this connection' };
    }
  }
  if (missing.length > 0) {
    const names = missing.map((d) => d.platform as string);
    return {
      ok: false,
      code: 'platform_not_connected',
      message: `no active connection for ${names.join(', ')}`,
      details: missing,
      targets: plan.targets,
    };
  }
  if (pageMissing) {
    return { ok: false, code: 'facebook_page_not_selected', message: 'select a Facebook page before publishing to facebook', details: [pageMissing], targets: plan.targets };
  }
  return { ok: true, request, base: plan.base, targets: plan.targets, timing: timed.timing };
}
