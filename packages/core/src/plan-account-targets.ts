import { issueOfGroup, splitByAccount, type AccountKeyedFields } from './account-key';
import type { ErrorDetail } from './errors';
import { isPlatform, type Platform } from './platforms';
import { planTargets, type PlannedTarget, type TimingInput } from './plan-targets';

/** A planned target with the account its `platforms` entry names. */
export interface PlannedAccountTarget extends PlannedTarget {
  /** The `platforms` entry (`twitter:brand`, or the network for its default account). */
  accountKey: string;
  /** The label it names; null: the network's default account. */
  label: string | null;
}

export type AccountPlanResult = { ok: true; base: number | null; targets: PlannedAccountTarget[] } | { ok: false; issues: ErrorDetail[] };

/** A group's type_schedule key (`twitter.reel`) as the request wrote it (`twitter:brand.reel`). */
function scheduleKeyOfGroup(key: string | null, keys: Map<Platform, string>): string | null {
  if (key === null) return null;
  const dot = key.indexOf('.');
  const head = dot < 0 ? key : key.slice(0, dot);
  return isPlatform(head) ? `${keys.get(head) ?? head}${dot < 0 ? '' : key.slice(dot)}` : key;
}

/**
 * planTargets over a request whose `platforms` name accounts: the request split per label
 * (core splitByAccount), each part planned as a request of the seed interface, the issues
 * and schedule keys naming the request's own entries again. A request of bare network
 * names plans exactly as planTargets does.
 */
export function planAccountTargets(input: Omit<TimingInput, 'platforms' | 'platform_types'> & Pick<AccountKeyedFields, 'platforms' | 'platform_types'>, now: number): AccountPlanResult {
  const issues: ErrorDetail[] = [];
  const seen = new Set<string>();
  const targets: PlannedAccountTarget[] = [];
  let base: number | null = null;
  for (const group of splitByAccount(input)) {
    const plan = planTargets({ ...input, platforms: group.request.platforms, platform_types: group.request.platform_types, type_schedule: group.request.type_schedule }, now);
    if (!plan.ok) {
      for (const issue of plan.issues.map((d) => issueOfGroup(d, group.keys))) {
        const id = `${issue.path}\u0000${issue.message}`;
        if (!seen.has(id)) issues.push(issue);
        seen.add(id);
      }
      continue;
    }
    base = plan.base;
    for (const t of plan.targets) {
      targets.push({ ...t, scheduleKey: scheduleKeyOfGroup(t.scheduleKey, group.keys), accountKey: group.keys.get(t.platform) ?? t.platform, label: group.label });
    }
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, base, targets };
}
