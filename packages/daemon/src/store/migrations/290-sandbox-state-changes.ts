/**
 * The simulators of several daemons over one PostgreSQL database share one sandbox world
 * (docs/platforms/simulators.md "Several daemons, one sandbox world"): each process holds the
 * state in memory and catches up on what the others wrote. `changed_tx` is the PostgreSQL
 * transaction id that last wrote the row, `writer` the process that wrote it, and `removed`
 * marks a deleted entry (kept as a tombstone so the others hear of the deletion). On SQLite,
 * one process writes the file: the columns stay empty and deletions delete.
 */
export const migration290 = `
ALTER TABLE sandbox_state ADD COLUMN changed_tx INTEGER;
ALTER TABLE sandbox_state ADD COLUMN writer TEXT;
ALTER TABLE sandbox_state ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
`;

export const migration290Postgres = `
ALTER TABLE sandbox_state ADD COLUMN changed_tx BIGINT;
ALTER TABLE sandbox_state ADD COLUMN writer TEXT;
ALTER TABLE sandbox_state ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
CREATE INDEX sandbox_state_changed ON sandbox_state (changed_tx);
`;
