import { canonicalZone, formatInstant, resolveTimeIn, resolveWallTime, Temporal, timeIssue, wallTimeOf, type ErrorDetail, type UpdateRequest } from '@socialpub/core';
import type { PostTimes } from '../store/job-times';
import type { PostRecord } from '../store/jobs';

export type ZonedUpdate =
  | {
      ok: true;
      /** The request with scheduled_for as an instant (or unchanged), for the re-planning. */
      update: UpdateRequest;
      /** The zone wall times of this update are read in (type_schedule too). */
      zone: string | null;
      /** The job's time facts after the update. */
      times: PostTimes;
    }
  | { ok: false; issues: ErrorDetail[] };

/**
 * The zone side of a PATCH. Retiming keeps the job's zone: a wall time is read in the
 * PATCH's timezone, else the job's, else the user's setting. A timezone alone keeps the
 * local wall time and moves the instant (10:00 New York becomes 10:00 Berlin). A new time
 * takes the job out of its queue slot (it no longer sits in one).
 */
export function zoneUpdate(job: PostRecord, times: PostTimes, upd: UpdateRequest, userZone: string | null): ZonedUpdate {
  const newZone = upd.timezone !== undefined ? canonicalZone(upd.timezone) : null;
  const zone = newZone ?? times.timezone ?? userZone;
  let update = upd;
  let base = job.scheduledFor;
  if (upd.scheduled_for !== undefined) {
    const r = resolveTimeIn(upd.scheduled_for, zone);
    if (!r.ok) return { ok: false, issues: [timeIssue('scheduled_for', r)] };
    base = r.at;
    update = { ...upd, scheduled_for: formatInstant(r.at) };
  } else if (newZone !== null && job.scheduledFor !== null && newZone !== (times.timezone ?? 'UTC')) {
    const local = times.scheduledLocal ?? wallTimeOf(job.scheduledFor, times.timezone ?? 'UTC');
    const r = resolveWallTime(Temporal.PlainDateTime.from(local), newZone);
    if (!r.ok) return { ok: false, issues: [timeIssue('timezone', r)] };
    base = r.at;
    update = { ...upd, scheduled_for: formatInstant(r.at) };
  }
  const shown = zone ?? 'UTC';
  return {
    ok: true,
    update,
    zone,
    times: {
      ...times,
      timezone: zone,
      scheduledLocal: base === null ? null : wallTimeOf(base, shown),
      queueSlot: update.scheduled_for !== undefined && base !== job.scheduledFor ? null : times.queueSlot,
    },
  };
}
