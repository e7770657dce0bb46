import {
  canonicalZone,
  expandSeries,
  formatInstant,
  resolveTimeIn,
  timeIssue,
  type ErrorCode,
  type ErrorDetail,
  type NetworkPublishRequest,
  type TimingInput,
} from '@socialpub/core';
import type { Store } from '../store/store';
import { nextFreeSlots, QUEUE_SEARCH_DAYS, type FreeSlot } from './queue-slots';
import { userZone } from './user-zone';

/** What the time-related fields of a publish request come to, before targets are planned. */
export interface Timing {
  /** The zone wall times were read in: the request's, else the user's setting; null: none (UTC). */
  zone: string | null;
  /** The timing input for planTargets: scheduled_for is the slot or first occurrence when those decide it. */
  input: TimingInput;
  /** The queue slot taken (queue: true). */
  slot: FreeSlot | null;
  /** A recurring post: its rule and every occurrence (the first is this job's base). */
  series: { rrule: string; count: number | null; until: number | null; start: number; occurrences: number[] } | null;
}

export type TimingResult = { ok: true; timing: Timing } | { ok: false; code: ErrorCode; message: string; details: ErrorDetail[] };

const refuse = (path: string, message: string, code: ErrorCode = 'invalid_request'): TimingResult => ({
  ok: false,
  code,
  message: `${path}: ${message}`,
  details: [{ path, message }],
});

/**
 * The zone, queue slot and recurrence of a publish request. Runs before planTargets, which
 * then checks the times the same way for a plain, queued or recurring post.
 */
export function resolveTiming(store: Store, userId: string, req: NetworkPublishRequest, now: number): TimingResult {
  const zone = req.timezone != null ? canonicalZone(req.timezone) : userZone(store, userId);
  const input: TimingInput = { ...req, timezone: zone };

  if (req.queue === true) {
    const queue = store.queues.get(userId);
    if (!queue || queue.slots.length === 0) {
      return refuse('queue', 'your queue has no slots; set them first (PUT /queue, or socialpub queue set)');
    }
    const [slot] = nextFreeSlots(store, userId, queue, req.platforms, now, 1);
    if (!slot) {
      return refuse('queue', `no free slot for ${req.platforms.join(', ')} in the next ${QUEUE_SEARCH_DAYS} days (every slot that takes these platforms is full)`, 'conflict');
    }
    // The post takes the zone its slot was defined in, unless the request names one.
    const postZone = req.timezone != null ? zone : queue.timezone;
    return { ok: true, timing: { zone: postZone, input: { ...input, timezone: postZone, scheduled_for: formatInstant(slot.at) }, slot, series: null } };
  }

  if (req.recurrence != null && req.scheduled_for != null) {
    const seriesZone = zone ?? 'UTC';
    for (const [key, value] of Object.entries(req.type_schedule ?? {})) {
      if (!value.startsWith('+')) return refuse(`type_schedule.${key}`, 'a recurring post takes offsets only (+1h, +30m): an absolute time cannot repeat');
    }
    const start = resolveTimeIn(req.scheduled_for, zone);
    // An unreadable scheduled_for is planTargets' to report, with its usual message.
    if (!start.ok) return { ok: true, timing: { zone, input, slot: null, series: null } };
    let until: number | null = null;
    if (req.recurrence.until != null) {
      const u = resolveTimeIn(req.recurrence.until, zone);
      if (!u.ok) {
        const detail = timeIssue('recurrence.until', u);
        return { ok: false, code: 'invalid_request', message: `recurrence.until: ${u.message}`, details: [detail] };
      }
      until = u.at;
    }
    const count = req.recurrence.count ?? null;
    const expanded = expandSeries({ rrule: req.recurrence.rrule, count, until }, start.at, seriesZone);
    if (!expanded.ok) return refuse(expanded.path, expanded.message);
    const first = expanded.occurrences[0] as number;
    return {
      ok: true,
      timing: {
        zone,
        input: { ...input, scheduled_for: formatInstant(first) },
        slot: null,
        series: { rrule: expanded.rule, count, until, start: start.at, occurrences: expanded.occurrences },
      },
    };
  }
  return { ok: true, timing: { zone, input, slot: null, series: null } };
}
