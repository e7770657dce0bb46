/**
 * Publishing pauses from the platforms' rate limits: one row per connection (user and
 * platform) a platform answered 429 or a usage cap to, or per platform for an app-wide
 * limit (user_id NULL), until the reset the platform gave. Kept so a pause survives a
 * restart and the API and CLI can show it; a row whose `until` has passed means nothing.
 */
export const migration080 = `
CREATE TABLE platform_pauses (
  scope TEXT PRIMARY KEY,
  platform TEXT NOT NULL,
  user_id TEXT,
  until INTEGER NOT NULL,
  reason TEXT NOT NULL,
  platform_code TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX platform_pauses_until ON platform_pauses(until);
`;
