/**
 * The dashboard (issue 25): its sign-in links, its sessions and the review links people
 * without an account decide from. Every token is stored as its sha256 only (hex): a copy
 * of the database signs nobody in. Rows past their expiry mean nothing and are pruned.
 *
 * - signin_links: one-time links `socialpub dashboard` writes (10 min, single use:
 *   `used_at` set by the one request that consumed it).
 * - dashboard_sessions: the `sp_session` cookie's sessions (12 h, sliding).
 * - review_links: a link to decide (approve / reject) on some of a user's jobs.
 * - review_link_decisions: what was decided from a link, for the link's page and audit.
 * - job_rejections: why a job was rejected and through what (the API's reject with a
 *   reason, a review link's comment), shown on the post as `rejection`.
 */
export const migration150 = `
CREATE TABLE signin_links (
  token_hash TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);
CREATE INDEX signin_links_expires ON signin_links(expires_at);

CREATE TABLE dashboard_sessions (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL
);
CREATE INDEX dashboard_sessions_expires ON dashboard_sessions(expires_at);

CREATE TABLE review_links (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  job_ids TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX review_links_user ON review_links(user_id, created_at);

CREATE TABLE review_link_decisions (
  id INTEGER PRIMARY KEY,
  link_id TEXT NOT NULL REFERENCES review_links(id) ON DELETE CASCADE,
  job_id TEXT NOT NULL,
  decision TEXT NOT NULL CHECK (decision IN ('approve', 'reject')),
  comment TEXT,
  decided_at INTEGER NOT NULL
);
CREATE INDEX review_link_decisions_link ON review_link_decisions(link_id, id);

CREATE TABLE job_rejections (
  job_id TEXT PRIMARY KEY REFERENCES jobs(id) ON DELETE CASCADE,
  reason TEXT,
  source TEXT NOT NULL,
  review_link_id TEXT,
  rejected_at INTEGER NOT NULL
);
`;
