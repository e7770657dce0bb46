import { EVENT_VERSION, formatInstant, type SocialpubEvent } from '@socialpub/core';
import type { StoredEvent } from '../store/events';

const isTimeKey = (key: string) => key.endsWith('_at') || key === 'scheduled_for';

/** Stored facts -> the payload: epoch ms under time keys become ISO instants, at any depth. */
function present(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => present(v));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, present(v, k)]));
  }
  if (typeof value === 'number' && isTimeKey(key)) return formatInstant(value);
  return value;
}

export const eventId = (id: number) => `evt_${id}`;

/** `evt_42` or `42` -> 42; null when it is neither. */
export function parseEventId(text: string): number | null {
  const m = /^(?:evt_)?(\d{1,15})$/.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/**
 * An outbox row as the API shows it (SSE data, webhook body, what MCP notifications point
 * at): the envelope of core's EventSchema, `data` the type's schema (schemas/event-data.ts),
 * which the store wrote (store/state-events.ts, jobs/job-events.ts) with times as epoch ms.
 */
export function presentEvent(e: StoredEvent): SocialpubEvent {
  return {
    id: eventId(e.id),
    type: e.type,
    version: EVENT_VERSION,
    timestamp: formatInstant(e.createdAt),
    job_id: e.jobId,
    data: present(e.data),
  } as SocialpubEvent;
}
