/**
 * Several daemons over one database (issue 34, docs/scaling.md "Several daemons").
 *
 * `daemons`: one row per running daemon, its heartbeat renewed every few seconds, removed
 * when it stops (a killed one's row goes stale): `socialpub daemon status` and /healthz
 * list the live ones and which of them leads (runs the once-per-cluster work).
 *
 * On PostgreSQL, targets that are (again) scheduled are announced on `socialpub_targets`
 * (their ids, 200 to a notification), so every daemon puts them in its timer wheel at once:
 * a post accepted by one daemon for "now" is published by whichever claims it first.
 */
export const migration205 = `
CREATE TABLE daemons (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid INTEGER NOT NULL,
  url TEXT,
  version TEXT NOT NULL,
  leader INTEGER NOT NULL DEFAULT 0 CHECK (leader IN (0, 1)),
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL
);
`;

export const migration205Postgres = `
CREATE TABLE daemons (
  id TEXT PRIMARY KEY,
  host TEXT NOT NULL,
  pid BIGINT NOT NULL,
  url TEXT,
  version TEXT NOT NULL,
  leader BIGINT NOT NULL DEFAULT 0 CHECK (leader IN (0, 1)),
  started_at BIGINT NOT NULL,
  heartbeat_at BIGINT NOT NULL
);

CREATE FUNCTION socialpub_targets_notify() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids TEXT[];
  i INTEGER;
BEGIN
  SELECT array_agg(id) INTO ids FROM changed_rows WHERE status = 'scheduled';
  IF ids IS NULL THEN
    RETURN NULL;
  END IF;
  FOR i IN 0 .. (array_length(ids, 1) - 1) / 200 LOOP
    PERFORM pg_notify('socialpub_targets', array_to_json(ids[i * 200 + 1 : i * 200 + 200])::text);
  END LOOP;
  RETURN NULL;
END
$$;
CREATE TRIGGER targets_notify_insert AFTER INSERT ON targets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION socialpub_targets_notify();
CREATE TRIGGER targets_notify_update AFTER UPDATE ON targets REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION socialpub_targets_notify();
`;
