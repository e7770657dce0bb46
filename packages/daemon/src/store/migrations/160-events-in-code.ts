/**
 * Event payloads are built in TypeScript by the store operations that change the state
 * (store/state-events.ts, docs/events.md), in the same transaction as the change, instead
 * of by the triggers of migrations 040, 090 and 100 (whose bodies a new field had to copy).
 * Dropped: the triggers that wrote events. Kept: the job-status triggers (002, 003, 100's
 * jobs_status_removed) and the webhook fan-out of every inserted event (040), which are no
 * event payloads.
 *
 * From here on, an event is written only by the daemon's code: a state change made by hand
 * in an sqlite3 shell reports nothing (as a post event never did).
 */
const DROPPED = [
  'events_target_publishing',
  'events_target_published',
  'events_target_retrying',
  'events_target_failed',
  'events_target_needs_review',
  'events_target_removed',
  'events_post_finished',
  'events_media_task',
  'events_connection_expired',
];

export const migration160 = DROPPED.map((name) => `DROP TRIGGER ${name};`).join('\n');
