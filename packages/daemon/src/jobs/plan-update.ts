import { NOT_STARTED, PAST_TOLERANCE_MS, formatInstant, parseInstant, planAccountTargets, type ErrorDetail, type UpdateRequest } from '@socialpub/core';
import type { PostRecord, TargetRecord } from '../store/jobs';

/** A target's new due time. */
export interface TargetMove {
  id: string;
  dueAt: number;
  scheduleKey: string | null;
}

/** What a PATCH changes: the job's new fields and the targets that move. */
export interface UpdatePlan {
  caption: string;
  platformCaptions: Record<string, string>;
  typeSchedule: Record<string, string>;
  platformOptions: PostRecord['platformOptions'];
  scheduledFor: number | null;
  publishNow: boolean;
  sortAt: number;
  moves: TargetMove[];
}

export const isNotStarted = (s: string) => (NOT_STARTED as readonly string[]).includes(s);

/**
 * The re-planning of an update: the new base time and schedule (offsets move with the
 * base, absolute times stay; core planTargets), checked for the targets that have not
 * started. Without a plan when the fields contradict each other; with one, `issues` lists
 * moves into the past. The caption rules are checked by the caller with the shared rules loop.
 */
export function planUpdate(
  job: PostRecord,
  movable: readonly TargetRecord[],
  upd: UpdateRequest,
  now: number,
  /** The zone absolute type_schedule wall times are read in (retime-zone.ts); scheduled_for arrives as an instant. */
  zone: string | null = null,
): { plan: UpdatePlan | null; issues: ErrorDetail[] } {
  const issues: ErrorDetail[] = [];
  for (const key of Object.keys(upd.platform_captions ?? {})) {
    if (!(job.platforms as string[]).includes(key)) issues.push({ path: `platform_captions.${key}`, message: `${key} is not among the job's platforms` });
  }
  for (const key of Object.keys(upd.platform_options ?? {})) {
    if (!(job.platforms as string[]).includes(key)) issues.push({ path: `platform_options.${key}`, message: `${key} is not among the job's platforms` });
    else if (!movable.some((t) => t.accountKey === key)) issues.push({ path: `platform_options.${key}`, message: `every ${key} target has started or finished; its options can no longer change` });
  }
  let base = job.scheduledFor;
  let publishNow = job.publishNow;
  if (upd.scheduled_for !== undefined) {
    base = parseInstant(upd.scheduled_for) as number;
    publishNow = false;
    if (base < now - PAST_TOLERANCE_MS) issues.push({ path: 'scheduled_for', message: 'is more than 60 seconds in the past' });
  }
  const typeSchedule = upd.type_schedule ?? job.typeSchedule;
  if (upd.type_schedule !== undefined && base === null) {
    issues.push({ path: 'type_schedule', message: 'type_schedule needs scheduled_for as its base time' });
  }
  if (issues.length > 0) return { plan: null, issues };

  // Past checks only for the targets that actually move.
  const moves: TargetMove[] = [];
  if (base !== null) {
    const plan = planAccountTargets(
      { platforms: job.platforms, platform_types: job.platformTypes, scheduled_for: formatInstant(base), type_schedule: typeSchedule, timezone: zone },
      Number.NEGATIVE_INFINITY,
    );
    if (!plan.ok) return { plan: null, issues: plan.issues };
    const planned = new Map(plan.targets.map((t) => [`${t.accountKey}.${t.type}`, t]));
    for (const t of movable) {
      const p = planned.get(`${t.accountKey}.${t.type}`);
      if (!p) continue;
      if (p.dueAt < now - PAST_TOLERANCE_MS) {
        issues.push({ path: p.scheduleKey ? `type_schedule.${p.scheduleKey}` : 'scheduled_for', message: `${t.platform} ${t.type} would be due more than 60 seconds in the past` });
      }
      if (p.dueAt !== t.dueAt || p.scheduleKey !== t.scheduleKey) moves.push({ id: t.id, dueAt: p.dueAt, scheduleKey: p.scheduleKey });
    }
  }
  return {
    issues,
    plan: {
      caption: upd.caption ?? job.caption,
      platformCaptions: { ...job.platformCaptions, ...upd.platform_captions },
      typeSchedule,
      platformOptions: { ...job.platformOptions, ...upd.platform_options },
      scheduledFor: base,
      publishNow,
      sortAt: base ?? job.sortAt,
      moves,
    },
  };
}
