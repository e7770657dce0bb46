/**
 * Time zones, queues and series. A job's zone and wall time live beside the job
 * (one row per job in job_times), so the jobs table keeps its shape.
 */
export const migration050 = `
CREATE TABLE series (
  id TEXT PRIMARY KEY,                       -- ser_...
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  rrule TEXT NOT NULL,                       -- RFC 5545 RRULE without DTSTART
  count INTEGER,                             -- recurrence.count, when given as a field
  until INTEGER,                             -- recurrence.until, epoch ms, when given as a field
  timezone TEXT NOT NULL,                    -- IANA zone the rule is expanded in
  start_at INTEGER NOT NULL,                 -- DTSTART: the request's scheduled_for
  template TEXT NOT NULL,                    -- JSON: the publish request each occurrence is made from
  occurrences TEXT NOT NULL,                 -- JSON array of every occurrence, epoch ms (at most 500)
  created INTEGER NOT NULL DEFAULT 0,        -- occurrences whose jobs exist (a prefix of occurrences)
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'finished', 'cancelled')),
  next_at INTEGER,                           -- the next occurrence still to create; NULL when none
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX series_user ON series(user_id, created_at, id);
CREATE INDEX series_due ON series(next_at) WHERE status = 'active';

CREATE TABLE job_times (
  job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  timezone TEXT,                             -- the zone times were read in; NULL: none applied (UTC)
  scheduled_local TEXT,                      -- scheduled_for as local wall time in that zone
  queue_slot TEXT,                           -- the weekly slot key taken with queue: true
  series_id TEXT REFERENCES series(id) ON DELETE CASCADE,
  occurrence INTEGER                         -- 1-based position in the series
);
CREATE INDEX job_times_slot ON job_times(user_id, queue_slot) WHERE queue_slot IS NOT NULL;
CREATE INDEX job_times_series ON job_times(series_id, occurrence) WHERE series_id IS NOT NULL;

CREATE TABLE queues (
  user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  timezone TEXT NOT NULL,
  capacity INTEGER NOT NULL DEFAULT 1 CHECK (capacity >= 1),
  slots TEXT NOT NULL DEFAULT '[]',          -- JSON array of {day, time, platforms?, capacity?}
  updated_at INTEGER NOT NULL
);
`;
