import { wallTimeOf, type PostSource, type PublishResult } from '@socialpub/core';
import type { Store } from '../store/store';
import type { User } from '../store/users';
import { newId } from '../util/ids';
import { buildJob } from './build-job';
import { acceptedEvents } from './job-events';
import type { PublishCheck } from './check-publish';
import { repeatedCaptionWarnings } from './duplicate-captions';
import { createOccurrences, SERIES_HORIZON_MS } from './recurrence';

/**
 * Writes an accepted publish request: its job with the zone, the wall time and the queue
 * slot it took, or — for a recurring post — the series and the jobs of its occurrences
 * within the horizon (the first always; it answers for the series). Call inside the
 * request's transaction, in the same turn as the check: a queue slot is chosen and taken
 * without an await between, so two requests cannot take the last place twice.
 */
export function acceptTimed(store: Store, user: User, check: Extract<PublishCheck, { ok: true }>, now: number, source: PostSource = 'api'): { result: PublishResult; targetIds: string[] } {
  const { request, timing } = check;
  if (timing.series) {
    const id = newId('ser');
    const sr = timing.series;
    store.series.create({
      id,
      userId: user.id,
      rrule: sr.rrule,
      count: sr.count,
      until: sr.until,
      timezone: timing.zone ?? 'UTC',
      startAt: sr.start,
      // An agent's series held for approval stays held in every later occurrence.
      template: source === 'mcp' && user.agentApproval ? { ...request, require_approval: true } : request,
      source,
      occurrences: sr.occurrences,
      createdAt: now,
    });
    const series = store.series.get(id);
    if (!series) throw new Error(`series ${id} vanished inside its own transaction`);
    const jobs = createOccurrences(store, user, series, Math.max(now + SERIES_HORIZON_MS, sr.occurrences[0] as number), now);
    const first = jobs[0];
    if (!first) throw new Error(`series ${id} created no job`);
    return {
      result: { ...first.result, warnings: repeatedCaptionWarnings(request, sr.occurrences.length) },
      targetIds: jobs.flatMap((j) => j.targets.map((t) => t.id)),
    };
  }
  const times = {
    timezone: timing.zone,
    scheduledLocal: check.base === null ? null : wallTimeOf(check.base, timing.zone ?? 'UTC'),
    queueSlot: timing.slot?.key ?? null,
    seriesId: null,
    occurrence: null,
  };
  const built = buildJob(user, request, check.base, check.targets, now, check.accounts, times, source);
  store.jobs.create(built.job, built.targets);
  store.jobTimes.set(built.job.id, user.id, times);
  for (const event of acceptedEvents(built, now)) store.events.append(event);
  return { result: built.result, targetIds: built.targets.map((t) => t.id) };
}
