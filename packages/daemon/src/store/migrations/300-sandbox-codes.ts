/**
 * The simulators' OAuth authorization codes, in the database rather than one process's
 * memory (docs/platforms/simulators.md "Several daemons, one sandbox world"): a code the
 * consent page of one daemon's simulators handed out is exchanged at another's, and only
 * once (`used` is set by one conditional UPDATE). Expired rows are swept when a code of the
 * same kind is issued.
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
`;

/** The same table in PostgreSQL's DDL (BIGINT ms times). */
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
`;
