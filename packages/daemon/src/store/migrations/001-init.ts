/**
 * The target statuses as this migration shipped them. Frozen here (it once read core's
 * live list): a status added later is added by its own migration (100 adds `removed`), so
 * a new database and a migrated one end with the same schema.
 */
const TARGET_STATUSES_001 = ['pending_approval', 'scheduled', 'publishing', 'published', 'failed', 'cancelled', 'needs_review'];

const inList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** The base schema. Times are integer epoch milliseconds UTC. */
export const migration001 = `
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  approval_workflow INTEGER NOT NULL DEFAULT 0 CHECK (approval_workflow IN (0, 1)),
  created_at INTEGER NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,                       -- key_...; the <id> part of sp_<id>_<secret>
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  name TEXT,
  secret_hash TEXT NOT NULL,                 -- sha256 of the secret, hex; the secret itself is never stored
  prefix TEXT NOT NULL,                      -- first characters of the full key, for listing
  created_at INTEGER NOT NULL,
  last_used_at INTEGER,
  revoked_at INTEGER,
  revoked_reason TEXT CHECK (revoked_reason IS NULL OR revoked_reason IN ('revoked', 'rotated')),
  replaced_by TEXT
);
CREATE INDEX api_keys_user ON api_keys(user_id);

CREATE TABLE connections (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  platform TEXT NOT NULL,
  mode TEXT NOT NULL CHECK (mode IN ('live', 'sandbox')),
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'expired')),
  status_reason TEXT,
  account_id TEXT,
  account_name TEXT,
  page_id TEXT,                              -- facebook: the selected page; instagram via FB login: the linked page
  page_name TEXT,
  secrets_enc TEXT,                          -- AES-256-GCM sealed JSON: tokens, app credentials
  token_expires_at INTEGER,
  refresh_expires_at INTEGER,
  token_obtained_at INTEGER,
  meta TEXT NOT NULL DEFAULT '{}',           -- non-secret JSON: scopes, api version, privacy defaults
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (user_id, platform)
);

CREATE TABLE jobs (
  id TEXT PRIMARY KEY,                       -- job_...
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  caption TEXT NOT NULL,
  platforms TEXT NOT NULL,                   -- JSON array
  platform_captions TEXT NOT NULL DEFAULT '{}',
  platform_types TEXT NOT NULL DEFAULT '{}',
  media_urls TEXT NOT NULL DEFAULT '[]',
  publish_now INTEGER NOT NULL DEFAULT 0,
  scheduled_for INTEGER,                     -- base time; NULL for publish_now
  type_schedule TEXT NOT NULL DEFAULT '{}',
  require_approval INTEGER NOT NULL DEFAULT 0,
  sort_at INTEGER NOT NULL,                  -- scheduled_for, or creation time for publish_now: the list order
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX jobs_user_sort ON jobs(user_id, sort_at, id);

CREATE TABLE targets (
  id TEXT PRIMARY KEY,                       -- tgt_...
  job_id TEXT NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  type TEXT NOT NULL,
  schedule_key TEXT,                         -- the type_schedule key that timed it, or NULL for the base
  due_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN (${inList(TARGET_STATUSES_001)})),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,                   -- backoff: not before this time (NULL: due_at)
  lease_until INTEGER,                       -- while publishing: the claim expires then
  lease_owner TEXT,
  checkpoint TEXT NOT NULL DEFAULT '{}',     -- adapter's remote results (container ids, upload sessions, post ids)
  attempt_started_at INTEGER,
  post_id TEXT,
  post_url TEXT,
  published_at INTEGER,
  error_code TEXT,
  error_message TEXT,
  platform_code TEXT,
  updated_at INTEGER NOT NULL
);
CREATE INDEX targets_job ON targets(job_id);
CREATE INDEX targets_status_due ON targets(status, due_at);
CREATE INDEX targets_user_status ON targets(user_id, status);

CREATE TABLE attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  target_id TEXT NOT NULL REFERENCES targets(id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  ended_at INTEGER,
  outcome TEXT,                              -- published | retry | failed | needs_review | reconciled_published | reconciled_not_published
  error_code TEXT,
  error_message TEXT,
  platform_code TEXT,
  detail TEXT
);
CREATE INDEX attempts_target ON attempts(target_id);

CREATE TABLE idempotency_keys (
  user_id TEXT NOT NULL,
  route TEXT NOT NULL,
  key TEXT NOT NULL,
  body_hash TEXT NOT NULL,
  status INTEGER NOT NULL,
  response TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, route, key)
);
CREATE INDEX idempotency_created ON idempotency_keys(created_at);

CREATE TABLE rate_windows (
  scope TEXT NOT NULL,                       -- user id, or client address for failed authentication
  class TEXT NOT NULL,                       -- auth | publish | media | scheduled | auth_failure
  window_start INTEGER NOT NULL,
  count INTEGER NOT NULL,
  PRIMARY KEY (scope, class, window_start)
);

CREATE TABLE settings (
  scope TEXT NOT NULL,                       -- 'global' or a user id
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (scope, key)
);

CREATE TABLE media_tasks (
  id TEXT PRIMARY KEY,                       -- task_...
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  status TEXT NOT NULL CHECK (status IN ('processing', 'completed', 'failed')),
  error_code TEXT,
  error_message TEXT,
  deadline_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE media_files (
  id TEXT PRIMARY KEY,
  task_id TEXT NOT NULL REFERENCES media_tasks(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  original_url TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'fetching', 'ready', 'failed', 'expired')),
  token TEXT UNIQUE,                         -- unguessable path segment of prepared_url
  kind TEXT,                                 -- image | video
  mime_type TEXT,
  size INTEGER,
  sha256 TEXT,
  path TEXT,                                 -- file name inside the media dir
  error_code TEXT,
  error_message TEXT,
  prepared_at INTEGER,
  expires_at INTEGER,
  updated_at INTEGER NOT NULL
);
CREATE INDEX media_files_task ON media_files(task_id, position);
CREATE INDEX media_files_expiry ON media_files(status, expires_at);

CREATE TABLE sandbox_posts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  platform TEXT NOT NULL,
  account_id TEXT,
  post_id TEXT NOT NULL,
  post_url TEXT,
  kind TEXT NOT NULL,                        -- what was posted: feed, story, reel, tweet, video...
  body TEXT NOT NULL,                        -- JSON: caption, media, parameters as the simulator received them
  created_at INTEGER NOT NULL
);
CREATE INDEX sandbox_posts_platform ON sandbox_posts(platform, created_at);
`;
