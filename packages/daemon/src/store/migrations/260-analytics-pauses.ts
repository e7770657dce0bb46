/**
 * A network's "wait" (429) to the analytics collector's readings, per connection, kept in
 * the database (issue 36): a restart does not forget it, and every daemon over the database
 * honours it (scaling.md). Readings only: publishing's own pauses are platform_pauses.
 */
export const migration260 = `
CREATE TABLE analytics_pauses (
  scope TEXT PRIMARY KEY,
  until_at INTEGER NOT NULL,
  reason TEXT NOT NULL
);
`;

/** The same table in PostgreSQL's DDL (BIGINT ms times). */
export const migration260Postgres = `
CREATE TABLE analytics_pauses (
  scope TEXT PRIMARY KEY,
  until_at BIGINT NOT NULL,
  reason TEXT NOT NULL
);
`;
