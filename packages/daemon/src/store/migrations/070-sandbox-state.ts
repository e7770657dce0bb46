/**
 * The simulators' own state (platforms/shared/sim/sim-state.ts): accounts, tokens, posts,
 * uploads in progress, rate windows and id counters, one JSON value per (simulator, kind,
 * key), so a restarted daemon's sandbox continues where it stopped.
 */
export const migration070 = `
CREATE TABLE sandbox_state (
  simulator TEXT NOT NULL,
  kind TEXT NOT NULL,
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (simulator, kind, key)
) WITHOUT ROWID;
`;
