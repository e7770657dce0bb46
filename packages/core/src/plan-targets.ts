import type { ErrorDetail } from './errors';
import { PLATFORM_INFO, allowsType, isContentType, isPlatform, type ContentType, type Platform } from './platforms';
import { PAST_TOLERANCE_MS, parseOffset, type ScheduleValue } from './time';
import { resolveTimeIn, timeIssue, type ResolvedTime } from './zoned/resolve-time';

/** The timing-relevant part of a publish request, after the schema has checked shapes. */
export interface TimingInput {
  platforms: readonly Platform[];
  platform_types?: Partial<Record<string, readonly string[]>> | null;
  publish_now?: boolean | null;
  scheduled_for?: string | null;
  type_schedule?: Record<string, string> | null;
  /** The zone local wall times are read in (request, else the user's setting); null: none, so a wall time is refused. */
  timezone?: string | null;
}

/** A type_schedule value: an elapsed offset, or an absolute time (an instant, or a wall time in the zone). */
function parseScheduleEntry(text: string, zone: string | null): { ok: true; value: ScheduleValue } | { ok: false; issue: Exclude<ResolvedTime, { ok: true }> | null } {
  if (text.startsWith('+')) {
    const ms = parseOffset(text);
    return ms === null ? { ok: false, issue: null } : { ok: true, value: { kind: 'offset', ms } };
  }
  const r = resolveTimeIn(text, zone);
  return r.ok ? { ok: true, value: { kind: 'absolute', at: r.at } } : { ok: false, issue: r.reason === 'malformed' ? null : r };
}

export interface PlannedTarget {
  platform: Platform;
  type: ContentType;
  /** Due time, epoch ms. */
  dueAt: number;
  /** Which type_schedule key decided the time (null: the base). */
  scheduleKey: string | null;
}

export type PlanResult = { ok: true; base: number | null; targets: PlannedTarget[] } | { ok: false; issues: ErrorDetail[] };

/** The content types a request asks of a platform: its platform_types entry, else the default. */
export function typesFor(platform: Platform, platformTypes?: Partial<Record<string, readonly string[]>> | null): string[] {
  const listed = platformTypes?.[platform];
  return listed && listed.length > 0 ? [...new Set(listed)] : [PLATFORM_INFO[platform].defaultType];
}

/**
 * The most specific type_schedule key for a target: `platform.type` > `type` > `platform`.
 * Returns null when none applies (the target takes the base time).
 */
export function scheduleKeyFor(platform: Platform, type: string, schedule?: Record<string, string> | null): string | null {
  if (!schedule) return null;
  for (const key of [`${platform}.${type}`, type, platform]) {
    if (Object.prototype.hasOwnProperty.call(schedule, key)) return key;
  }
  return null;
}

/** Due time of one target from a base and its schedule entry: offsets move with the base, absolute times stay. */
export function dueTimeFor(base: number, value: ScheduleValue | null): number {
  if (!value) return base;
  return value.kind === 'offset' ? base + value.ms : value.at;
}

/**
 * Checks the timing rules of docs/api.md ("Targets and their times") and plans one target per platform x type.
 * `now` is the injected clock's epoch ms.
 */
export function planTargets(input: TimingInput, now: number): PlanResult {
  const issues: ErrorDetail[] = [];
  const publishNow = input.publish_now === true;
  const hasBase = input.scheduled_for !== undefined && input.scheduled_for !== null;
  if (publishNow && hasBase) issues.push({ path: 'scheduled_for', message: 'give either publish_now: true or scheduled_for, not both' });
  if (!publishNow && !hasBase) issues.push({ path: 'scheduled_for', message: 'give either publish_now: true or scheduled_for' });
  const schedule = input.type_schedule ?? null;
  if (schedule && Object.keys(schedule).length > 0 && !hasBase) {
    issues.push({ path: 'type_schedule', message: 'type_schedule needs scheduled_for as its base time' });
  }
  let base: number | null = null;
  if (hasBase) {
    const r = resolveTimeIn(input.scheduled_for as string, input.timezone ?? null);
    if (!r.ok) {
      issues.push(r.reason === 'malformed' ? { path: 'scheduled_for', message: 'must be an ISO 8601 date-time with a zone, e.g. 2026-12-25T10:00:00Z' } : timeIssue('scheduled_for', r));
    } else if ((base = r.at) < now - PAST_TOLERANCE_MS) {
      issues.push({ path: 'scheduled_for', message: 'is more than 60 seconds in the past' });
    }
  }

  const pairs: { platform: Platform; type: string }[] = [];
  for (const platform of input.platforms) {
    for (const type of typesFor(platform, input.platform_types)) pairs.push({ platform, type });
  }

  const parsed = new Map<string, ScheduleValue>();
  if (schedule) {
    for (const [key, value] of Object.entries(schedule)) {
      const path = `type_schedule.${key}`;
      const entry = typeof value === 'string' ? parseScheduleEntry(value, input.timezone ?? null) : { ok: false as const, issue: null };
      if (!entry.ok) {
        issues.push(entry.issue ? timeIssue(path, entry.issue) : { path, message: 'must be an offset (+2h, +30m, +1h30m; at most +8760h) or an ISO 8601 date-time with a zone' });
        continue;
      }
      parsed.set(key, entry.value);
      const dot = key.indexOf('.');
      let matches: boolean;
      if (dot >= 0) {
        const p = key.slice(0, dot), t = key.slice(dot + 1);
        matches = pairs.some((x) => x.platform === p && x.type === t);
        if (!matches && isPlatform(p) && !allowsType(p, t)) {
          issues.push({ path, message: `${p} has no content type "${t}" (allowed: ${PLATFORM_INFO[p].types.join(', ')})` });
          continue;
        }
      } else if (isPlatform(key)) {
        matches = pairs.some((x) => x.platform === key);
      } else if (isContentType(key)) {
        matches = pairs.some((x) => x.type === key);
      } else {
        matches = false;
      }
      if (!matches) issues.push({ path, message: `"${key}" matches no target of this request (use a content type, a platform, or platform.type)` });
    }
  }
  if (issues.length > 0) return { ok: false, issues };

  const targets: PlannedTarget[] = [];
  for (const { platform, type } of pairs) {
    const key = publishNow ? null : scheduleKeyFor(platform, type, schedule);
    const dueAt = publishNow ? now : dueTimeFor(base as number, key ? (parsed.get(key) ?? null) : null);
    if (!publishNow && dueAt < now - PAST_TOLERANCE_MS) {
      issues.push({ path: key ? `type_schedule.${key}` : 'scheduled_for', message: `${platform} ${type} would be due more than 60 seconds in the past` });
    }
    targets.push({ platform, type: type as ContentType, dueAt, scheduleKey: key });
  }
  if (issues.length > 0) return { ok: false, issues };
  return { ok: true, base, targets };
}
