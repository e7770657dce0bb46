import {
  PublishRequestSchema,
  accountKey,
  issueOfGroup,
  planAccountTargets,
  splitByAccount,
  type PlannedAccountTarget,
  type PublishRequest,
  type ErrorCode,
  type ErrorDetail,
  type ContentType,
  type Platform,
  type PlatformOptions,
} from '@socialpub/core';
import type { ConnectionInfo } from '../store/connections';
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
  | {
      ok: true;
      request: PublishRequest;
      base: number | null;
      targets: PlannedAccountTarget[];
      timing: Timing;
      /** The account of each `platforms` entry, as checked. */
      accounts: Map<string, ConnectionInfo>;
    }
  | PublishRefusal;

export interface PublishRefusal {
  ok: false;
  code: ErrorCode;
  message: string;
  details: ErrorDetail[];
  targets: PlannedAccountTarget[];
}

/** The caption a platform gets: its platform_captions entry, else caption. */
export function captionFor(platform: string, caption: string, platformCaptions: Record<string, string> | null | undefined) {
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
  /** With `accountKey`, a target's caption and options are looked up under it (an edited job's, keyed like its platforms); else under its platform. */
  targets: readonly { platform: Platform; type: ContentType; accountKey?: string; connectionId?: string | null }[];
  /** The request's (or the edited job's) platform_options. */
  platformOptions?: PlatformOptions | Record<string, Record<string, unknown> | undefined> | null;
  /** Whose connections' limits apply (per-account limits, e.g. a Mastodon server's); absent: the core table's. */
  userId?: string;
  /** Which of the user's accounts (null: the networks' defaults). */
  label?: string | null;
}

/**
 * The platform rules (core table, then the adapter's own checks) for every target, each
 * detail naming its target. The one rules loop: publish, validate and PATCH all run it.
 */
export function checkRules(deps: PublishCheckDeps, input: RulesInput): ErrorDetail[] {
  const issues: ErrorDetail[] = [];
  for (const t of input.targets) {
    const key = t.accountKey ?? t.platform;
    const { caption, path } = captionFor(key, input.caption, input.platformCaptions);
    const account = input.userId === undefined ? null : t.connectionId ? deps.store.connections.getById(t.connectionId) : deps.store.connections.find(input.userId, t.platform, input.label ?? null);
    const connectionMeta = account?.meta ?? null;
    for (const d of checkTargetRules({
      connectionMeta,
      platform: t.platform,
      type: t.type,
      caption,
      captionPath: path,
      media: input.media,
      publicBaseUrl: deps.publicBaseUrl,
      adapter: deps.adapters.get(t.platform),
      options: ((input.platformOptions as Record<string, Record<string, unknown> | undefined> | null | undefined)?.[key]) ?? {},
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

/** The not-connected message of a `platforms` entry. */
function notConnected(platform: Platform, label: string | null, conn: ConnectionInfo | null): string {
  const key = accountKey(platform, label);
  const how = `socialpub connect ${platform}${label === null ? '' : ` --label ${label}`}`;
  if (!conn) return label === null ? `${platform} is not connected (connect it with: ${how})` : `${key}: you have no ${platform} account labelled ${label} (connect one with: ${how})`;
  return label === null ? `the ${platform} connection has expired; reconnect it (${how})` : `the ${key} connection has expired; reconnect it (${how})`;
}

/**
 * The checks after the schema, on a parsed request. Its `platforms` may name accounts
 * (`twitter:brand`): the timing and platform rules run on each label's part as on a
 * request of one account per network (core splitByAccount), every issue naming the
 * request's own entry; then each entry's account must be connected and active.
 */
export function checkPublishRequest(deps: PublishCheckDeps, user: User, request: PublishRequest, now: number): PublishCheck {
  const groups = splitByAccount(request);
  const networks = [...new Set(groups.flatMap((g) => g.request.platforms))];
  // Zone, queue slot and recurrence first: they decide the times planTargets checks.
  const timed = resolveTiming(deps.store, user.id, { ...request, platforms: networks, platform_options: null }, now);
  if (!timed.ok) return { ok: false, code: timed.code, message: timed.message, details: timed.details, targets: [] };
  const plan = planAccountTargets({ ...timed.timing.input, platforms: request.platforms, platform_types: request.platform_types, type_schedule: request.type_schedule }, now);
  if (!plan.ok) return { ok: false, code: 'invalid_request', message: firstMessage(plan.issues), details: plan.issues, targets: [] };

  const media = deps.mediaLookup.describe(user.id, request.media_urls ?? []);
  const ruleIssues: ErrorDetail[] = [];
  for (const g of groups) {
    // The group's fields are keyed by network: its targets are looked up under their platform.
    const targets = plan.targets.filter((t) => t.label === g.label).map((t) => ({ platform: t.platform, type: t.type }));
    const own = [
      ...checkRules(deps, { caption: request.caption, platformCaptions: g.request.platform_captions, media, targets, platformOptions: g.request.platform_options as Record<string, Record<string, unknown> | undefined> | null | undefined, userId: user.id, label: g.label }),
      ...checkReplyRules(
        { ...deps, describe: (urls) => deps.mediaLookup.describe(user.id, urls), connectionMeta: (platform) => deps.store.connections.find(user.id, platform, g.label)?.meta ?? null },
        g.request,
        targets,
      ),
    ];
    ruleIssues.push(...own.map((d) => issueOfGroup(d, g.keys)));
  }
  if (ruleIssues.length > 0) {
    return { ok: false, code: 'invalid_request', message: firstMessage(ruleIssues), details: ruleIssues, targets: plan.targets };
  }

  const missing: ErrorDetail[] = [];
  const accounts = new Map<string, ConnectionInfo>();
  let pageMissing: ErrorDetail | null = null;
  for (const g of groups) {
    for (const [platform, key] of g.keys) {
      const conn = deps.store.connections.find(user.id, platform, g.label);
      const account = g.label === null ? {} : { account: key };
      if (!conn || conn.status !== 'active') {
        missing.push({ path: 'platforms', platform, ...account, message: notConnected(platform, g.label, conn) });
      } else if (platform === 'facebook' && !conn.pageId) {
        pageMissing = { path: 'platforms', platform, ...account, message: 'no Facebook page is selected for this connection' };
      }
      if (conn) accounts.set(key, conn);
    }
  }
  if (missing.length > 0) {
    const names = missing.map((d) => (d.account ?? d.platform) as string);
    return {
      ok: false,
      code: 'platform_not_connected',
      message: `no active connection for ${names.join(', ')}`,
      details: missing,
      targets: plan.targets,
    };
  }
  // Two entries of one account (`twitter` and `twitter:default`) would post to it twice.
  const seenAccount = new Map<string, string>();
  const twice: ErrorDetail[] = [];
  for (const [key, conn] of accounts) {
    const first = seenAccount.get(conn.id);
    if (first !== undefined) twice.push({ path: 'platforms', platform: conn.platform, account: key, message: `${key} is the same account as ${first}: list it once` });
    else seenAccount.set(conn.id, key);
  }
  if (twice.length > 0) return { ok: false, code: 'invalid_request', message: firstMessage(twice), details: twice, targets: plan.targets };
  if (pageMissing) {
    return { ok: false, code: 'facebook_page_not_selected', message: 'select a Facebook page before publishing to facebook', details: [pageMissing], targets: plan.targets };
  }
  return { ok: true, request, base: plan.base, targets: plan.targets, timing: timed.timing, accounts };
}
