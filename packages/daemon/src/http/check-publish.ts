import {
  PublishRequestSchema,
  planTargets,
  type ErrorCode,
  type ErrorDetail,
  type Platform,
  type PlannedTarget,
  type PublishRequest,
} from '@socialpub/core';
import type { PlatformAdapter } from '../platforms/adapter';
import type { MediaLookup } from '../services';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import { issuesToDetails } from './errors';
import { checkTargetRules } from './platform-rules';

export interface PublishCheckDeps {
  store: Store;
  mediaLookup: MediaLookup;
  adapters: Map<Platform, PlatformAdapter>;
  publicBaseUrl: string | null;
}

export type PublishCheck =
  | { ok: true; request: PublishRequest; base: number | null; targets: PlannedTarget[] }
  | { ok: false; code: ErrorCode; message: string; details: ErrorDetail[]; targets: PlannedTarget[] };

/** The caption a platform gets: its platform_captions entry, else caption. */
export function captionFor(platform: Platform, caption: string, platformCaptions: Record<string, string> | null | undefined) {
  const own = platformCaptions?.[platform];
  return own !== undefined ? { caption: own, path: `platform_captions.${platform}` } : { caption, path: 'caption' };
}

const firstMessage = (d: ErrorDetail[]) => {
  const f = d[0];
  return f ? `${f.path}: ${f.message}` : 'invalid request';
};

/**
 * Every check POST /content/publish runs before it stores anything, in order: the schema,
 * the timing rules (core planTargets), the platform rules per target, then the user's
 * connections. Shared with POST /content/validate, which reports instead of storing.
 */
export function checkPublish(deps: PublishCheckDeps, user: User, body: unknown, now: number): PublishCheck {
  const parsed = PublishRequestSchema.safeParse(body);
  if (!parsed.success) {
    const details = issuesToDetails(parsed.error.issues);
    return { ok: false, code: 'invalid_request', message: firstMessage(details), details, targets: [] };
  }
  const request = parsed.data;
  const plan = planTargets(request, now);
  if (!plan.ok) return { ok: false, code: 'invalid_request', message: firstMessage(plan.issues), details: plan.issues, targets: [] };

  const media = deps.mediaLookup.describe(user.id, request.media_urls ?? []);
  const ruleIssues: ErrorDetail[] = [];
  for (const t of plan.targets) {
    const { caption, path } = captionFor(t.platform, request.caption, request.platform_captions);
    for (const d of checkTargetRules({
      platform: t.platform,
      type: t.type,
      caption,
      captionPath: path,
      media,
      publicBaseUrl: deps.publicBaseUrl,
      adapter: deps.adapters.get(t.platform),
    })) {
      ruleIssues.push({ ...d, platform: t.platform, type: t.type });
    }
  }
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
  return { ok: true, request, base: plan.base, targets: plan.targets };
}
