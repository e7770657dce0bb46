/**
 * Reply chains and first comments (issue 13): the request's `thread` and `first_comment`
 * on the job (JSON, {} when none), and on each target what became of them — the post ids
 * of the follow-up parts already out and the comment's id or error (JSON, {} when none).
 */
const columns = `
ALTER TABLE jobs ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '{}';
ALTER TABLE targets ADD COLUMN follow_ups TEXT NOT NULL DEFAULT '{}';
`;

/**
 * target.published and target.failed carry what came of the follow-ups (`thread_posts`,
 * `comment`) when the target has any: the same keys as the target view. json_patch drops a
 * key whose value is NULL, so a target without follow-ups reports exactly as before.
 */
const followUps = `json_object('thread_posts', json(json_extract(NEW.follow_ups, '$.thread')), 'comment', json(json_extract(NEW.follow_ups, '$.comment')))`;
const targetEvent = (name: string, type: string, extra: string) => `
DROP TRIGGER events_target_${name};
CREATE TRIGGER events_target_${name} AFTER UPDATE OF status ON targets
WHEN OLD.status <> NEW.status AND NEW.status = '${name}'
BEGIN INSERT INTO events (user_id, type, job_id, subject, data, created_at) VALUES (NEW.user_id, '${type}', NEW.job_id, NEW.id,
  json_patch(json_object('target_id', NEW.id, 'platform', NEW.platform, 'type', NEW.type, 'attempt', NEW.attempts, ${extra}), ${followUps}), NEW.updated_at); END;`;

const events =
  targetEvent('published', 'target.published', `'post_id', NEW.post_id, 'post_url', NEW.post_url, 'published_at', NEW.published_at`) +
  targetEvent('failed', 'target.failed', `'error', json_object('code', NEW.error_code, 'message', NEW.error_message, 'platform_code', NEW.platform_code)`);

export const migration090 = columns + events;
