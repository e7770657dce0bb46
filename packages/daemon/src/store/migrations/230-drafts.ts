/**
 * Drafts (issue 38, item 2: drafts saved as you type, in the daemon, so they survive a
 * reload and show on another device): what a person's Compose form holds, as the JSON
 * object the dashboard saves (`content`), kept until it is published or deleted.
 */
export const migration230 = `
CREATE TABLE drafts (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX drafts_user ON drafts(user_id, updated_at);
`;

/** The same table on PostgreSQL: times as BIGINT milliseconds. */
export const migration230Postgres = `
CREATE TABLE drafts (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  content TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE INDEX drafts_user ON drafts(user_id, updated_at);
`;
