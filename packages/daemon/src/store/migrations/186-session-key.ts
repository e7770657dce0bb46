/**
 * The API key a dashboard session was opened with (issue 35, item 9): revoking or
 * rotating the key ends its sessions (store/api-keys.ts). Null for a session opened with
 * the one-time link `socialpub dashboard` prints (no key), and for sessions opened before
 * this migration (they end within 12 hours of their last use, as before).
 */
export const migration186 = `
ALTER TABLE dashboard_sessions ADD COLUMN key_id TEXT;
CREATE INDEX dashboard_sessions_key ON dashboard_sessions(key_id) WHERE key_id IS NOT NULL;
CREATE INDEX dashboard_sessions_user ON dashboard_sessions(user_id, created_at);
`;
