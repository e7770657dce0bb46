/**
 * What the simulators of several daemons over one PostgreSQL database must decide together
 * (docs/platforms/simulators.md "Several daemons, one sandbox world"):
 * - `sandbox_codes`: OAuth authorization codes, in the database rather than one process's
 *   memory: a code the consent page of one daemon's simulators handed out is exchanged at
 *   another's, and only once (`used` is set by one conditional UPDATE). Expired rows are
 *   swept when a code of the same kind is issued.
 * - `sandbox_windows`: rate windows counted by one upsert each on PostgreSQL (the window,
 *   reset when it has ended, and its count, raised only when the call fits; `allowed` is
 *   what that statement decided), so two daemons' calls never both take the last one.
 *   SQLite (one process) keeps its windows in sandbox_state as before, under the kind
 *   `windows`.
 * What the simulators kept of these in sandbox_state before goes: the windows of the old
 * kinds (`rate-windows`, YouTube's `quota`: windows start afresh once) and Meta's `codes`.
 */
export const migration300 = `
CREATE TABLE sandbox_codes (
  simulator TEXT NOT NULL,
  kind TEXT NOT NULL,
  code TEXT NOT NULL,
  value TEXT NOT NULL,
  expires_at INTEGER NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (simulator, kind, code)
);
CREATE INDEX sandbox_codes_expiry ON sandbox_codes (simulator, kind, expires_at);
CREATE TABLE sandbox_windows (
  simulator TEXT NOT NULL,
  key TEXT NOT NULL,
  start_at INTEGER NOT NULL,
  end_at INTEGER NOT NULL,
  used INTEGER NOT NULL,
  allowed INTEGER NOT NULL,
  PRIMARY KEY (simulator, key)
);
DELETE FROM sandbox_state WHERE kind = 'rate-windows' OR (simulator = 'youtube' AND kind = 'quota') OR (simulator = 'meta' AND kind = 'codes');
`;

/** The same tables in PostgreSQL's DDL (BIGINT ms times). */
export const migration300Postgres = `
CREATE TABLE sandbox_codes (
  simulator TEXT NOT NULL,
  kind TEXT NOT NULL,
  code TEXT NOT NULL,
  value TEXT NOT NULL,
  expires_at BIGINT NOT NULL,
  used INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (simulator, kind, code)
);
CREATE INDEX sandbox_codes_expiry ON sandbox_codes (simulator, kind, expires_at);
CREATE TABLE sandbox_windows (
  simulator TEXT NOT NULL,
  key TEXT NOT NULL,
  start_at BIGINT NOT NULL,
  end_at BIGINT NOT NULL,
  used BIGINT NOT NULL,
  allowed INTEGER NOT NULL,
  PRIMARY KEY (simulator, key)
);
DELETE FROM sandbox_state WHERE kind = 'rate-windows' OR (simulator = 'youtube' AND kind = 'quota') OR (simulator = 'meta' AND kind = 'codes');
`;
