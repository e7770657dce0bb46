/**
 * Events (docs/events.md): the transactional outbox and webhook deliveries.
 *
 * Every event is a row of `events`, written in the same SQLite transaction as the change it
 * reports, so a change is reported exactly when it commits. The jobs service writes the
 * post events it decides (accepted, approved, …) inside its transactions; the triggers
 * below write the events of state changes made anywhere (publisher, recovery, media
 * worker, token refresher, another daemon over the same file), as the job-status triggers
 * of migration 002 do. `id` is AUTOINCREMENT: SQLite has one writer at a time, so ids grow
 * in commit order and are never reused; a reader that has seen id N has seen every event
 * committed before it.
 *
 * `data` holds the payload's facts with times as epoch ms (`*_at` keys); the events module
 * presents them (ISO times) when reading.
 *
 * A webhook delivery (`webhook_messages`) is fanned out by a trigger in the same
 * transaction as its event, to every active endpoint of the user subscribed to the type.
 */

/** INSERT of an event from a trigger; `data` is an SQL json_object(...) expression. */
const event = (type: string, userId: string, jobId: string, subject: string, data: string, at: string) =>
  `INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (${userId}, '${type}', ${jobId}, ${subject}, ${data}, ${at});`;

const target = (extra = '') =>
  `json_object('target_id', NEW.id, 'platform', NEW.platform, 'type', NEW.type, 'attempt', NEW.attempts${extra})`;

const onTarget = (name: string, when: string, type: string, data: string) => `
CREATE TRIGGER events_target_${name} AFTER UPDATE OF status ON targets
WHEN OLD.status <> NEW.status AND ${when}
BEGIN ${event(type, 'NEW.user_id', 'NEW.job_id', 'NEW.id', data, 'NEW.updated_at')} END;`;

const error = `, 'error', json_object('code', NEW.error_code, 'message', NEW.error_message, 'platform_code', NEW.platform_code)`;

export const migration040 = `
CREATE TABLE events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  user_id TEXT NOT NULL,
  type TEXT NOT NULL,
  job_id TEXT,
  subject TEXT,                              -- the target, task, connection or endpoint it is about
  data TEXT NOT NULL DEFAULT '{}',           -- JSON; times as epoch ms in *_at keys
  created_at INTEGER NOT NULL
);
CREATE INDEX events_user ON events(user_id, id);
CREATE INDEX events_created ON events(created_at);

CREATE TABLE webhook_endpoints (
  id TEXT PRIMARY KEY,                       -- whk_...
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  event_types TEXT NOT NULL,                 -- JSON array of types, or ["*"]
  secret_enc TEXT NOT NULL,                  -- whsec_ secret sealed with the secret key
  previous_secret_enc TEXT,                  -- after a rotation: the old secret, still signing until previous_until
  previous_until INTEGER,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  disabled_reason TEXT,
  failing_since INTEGER,                     -- first failed attempt since the last success
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX webhook_endpoints_user ON webhook_endpoints(user_id);

CREATE TABLE webhook_messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,      -- msg_<id>: the webhook-id of every attempt
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id INTEGER,                          -- NULL for a test message (body holds it)
  body TEXT,
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  created_at INTEGER NOT NULL,
  ended_at INTEGER
);
CREATE INDEX webhook_messages_due ON webhook_messages(status, next_attempt_at);
CREATE INDEX webhook_messages_endpoint ON webhook_messages(endpoint_id, id);

CREATE TABLE webhook_attempts (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  message_id INTEGER NOT NULL REFERENCES webhook_messages(id) ON DELETE CASCADE,
  started_at INTEGER NOT NULL,
  duration_ms INTEGER NOT NULL,
  status_code INTEGER,
  error TEXT
);
CREATE INDEX webhook_attempts_message ON webhook_attempts(message_id);

CREATE TRIGGER events_webhook_fanout AFTER INSERT ON events
BEGIN
  INSERT INTO webhook_messages (endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
  SELECT e.id, NEW.id, 'pending', 0, NEW.created_at, NEW.created_at FROM webhook_endpoints e
  WHERE e.user_id = NEW.user_id AND e.status = 'active'
    AND EXISTS (SELECT 1 FROM json_each(e.event_types) j WHERE j.value = NEW.type OR j.value = '*');
END;
${onTarget('publishing', "NEW.status = 'publishing'", 'target.publishing', target(", 'started_at', NEW.attempt_started_at"))}
${onTarget('published', "NEW.status = 'published'", 'target.published', target(", 'post_id', NEW.post_id, 'post_url', NEW.post_url, 'published_at', NEW.published_at"))}
${onTarget('retrying', "NEW.status = 'scheduled' AND OLD.status = 'publishing'", 'target.retrying', target(`${error}, 'next_attempt_at', coalesce(NEW.next_attempt_at, NEW.due_at)`))}
${onTarget('failed', "NEW.status = 'failed'", 'target.failed', target(error))}
${onTarget('needs_review', "NEW.status = 'needs_review'", 'target.needs_review', target(error))}

CREATE TRIGGER events_post_finished AFTER UPDATE OF status ON jobs
WHEN OLD.status <> NEW.status AND NEW.status IN ('published', 'partially_published', 'failed')
BEGIN ${event(
  'post.finished',
  'NEW.user_id',
  'NEW.id',
  'NEW.id',
  "json_object('job_id', NEW.id, 'status', NEW.status, 'targets', json((SELECT json_group_array(json_object('target_id', t.id, 'platform', t.platform, 'type', t.type, 'status', t.status, 'post_id', t.post_id, 'post_url', t.post_url)) FROM targets t WHERE t.job_id = NEW.id)))",
  '(SELECT max(updated_at) FROM targets WHERE job_id = NEW.id)',
)} END;

CREATE TRIGGER events_media_task AFTER UPDATE OF status ON media_tasks
WHEN OLD.status = 'processing' AND NEW.status IN ('completed', 'failed')
BEGIN ${event(
  "' || CASE NEW.status WHEN 'completed' THEN 'media.task_completed' ELSE 'media.task_failed' END || '",
  'NEW.user_id',
  'NULL',
  'NEW.id',
  "json_object('task_id', NEW.id, 'status', NEW.status, 'error', CASE WHEN NEW.error_code IS NULL THEN NULL ELSE json_object('code', NEW.error_code, 'message', NEW.error_message) END)",
  'NEW.updated_at',
)} END;

CREATE TRIGGER events_connection_expired AFTER UPDATE OF status ON connections
WHEN OLD.status = 'active' AND NEW.status = 'expired'
BEGIN ${event(
  'connection.expired',
  'NEW.user_id',
  'NULL',
  'NEW.id',
  "json_object('connection_id', NEW.id, 'platform', NEW.platform, 'reason', NEW.status_reason)",
  'NEW.updated_at',
)} END;
`;
