import type { DB } from './database';

/** A running daemon as its heartbeat row says (migration 205). */
export interface DaemonRecord {
  id: string;
  host: string;
  pid: number;
  url: string | null;
  version: string;
  leader: boolean;
  startedAt: number;
  heartbeatAt: number;
}

type Row = { id: string; host: string; pid: number; url: string | null; version: string; leader: number; started_at: number; heartbeat_at: number };

export type DaemonsRepository = ReturnType<typeof createDaemonsRepository>;

/** The daemons over this database: each renews its row; a row not renewed within the staleness window is a dead daemon's. */
export function createDaemonsRepository(db: DB) {
  const upsert = db.prepare(
    `INSERT INTO daemons (id, host, pid, url, version, leader, started_at, heartbeat_at) VALUES (@id, @host, @pid, @url, @version, @leader, @startedAt, @heartbeatAt)
     ON CONFLICT (id) DO UPDATE SET url = excluded.url, leader = excluded.leader, heartbeat_at = excluded.heartbeat_at`,
  );
  const live = db.prepare<[number], Row>('SELECT * FROM daemons WHERE heartbeat_at >= ? ORDER BY started_at, id');
  const remove = db.prepare('DELETE FROM daemons WHERE id = ?');
  const prune = db.prepare('DELETE FROM daemons WHERE heartbeat_at < ?');
  return {
    beat(d: DaemonRecord): void {
      upsert.run({ ...d, leader: d.leader ? 1 : 0 });
    },
    /** The daemons whose heartbeat is at or after `since`. */
    live(since: number): DaemonRecord[] {
      return live.all(since).map((r) => ({
        id: r.id,
        host: r.host,
        pid: r.pid,
        url: r.url,
        version: r.version,
        leader: r.leader === 1,
        startedAt: r.started_at,
        heartbeatAt: r.heartbeat_at,
      }));
    },
    remove(id: string): void {
      remove.run(id);
    },
    /** Forgets daemons silent since before `before` (killed ones). */
    prune(before: number): number {
      return prune.run(before).changes;
    },
  };
}
