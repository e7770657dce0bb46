import type { DB } from '../store/database';
import { dialectOf, type PostgresDatabase } from '../store/postgres/pg-database';

/**
 * Which daemon runs the work that must happen once for the whole database, not once per
 * daemon: token refresh (a refresh token used twice is revoked by some networks), webhook
 * deliveries (each sent once), retention, the media sweeper, recurring posts, housekeeping.
 *
 * On SQLite one daemon owns the file, so it leads from the start. On PostgreSQL the leader
 * holds a session advisory lock on its store connection: the others try again every
 * `intervalMs`, and one of them takes over once the leader's connection is gone (a stopped
 * or killed daemon's session ends, and its lock with it). A leader whose connection broke
 * takes the lock again on the new one; if another daemon has it by then, `onLost` is called
 * (the daemon stops: two leaders would deliver webhooks twice).
 */
export interface Leadership {
  readonly leader: boolean;
  /** Runs `fn` once this daemon leads (at once when it already does). */
  whenLeader(fn: () => void): void;
  stop(): void;
}

/** The advisory lock key of leadership (any constant the other keys of the schema do not use). */
const LEADER_LOCK = 7391002;

export function startLeadership(db: DB, opts: { intervalMs?: number; onError?: (error: unknown) => void; onLost?: () => void } = {}): Leadership {
  let leader = false;
  let timer: NodeJS.Timeout | null = null;
  const waiting: (() => void)[] = [];
  const lead = () => {
    leader = true;
    if (timer) clearInterval(timer);
    timer = null;
    for (const fn of waiting.splice(0)) fn();
  };
  if (dialectOf(db) === 'sqlite') lead();
  else {
    const attempt = db.prepare<[number], { ok: boolean }>('SELECT pg_try_advisory_lock(?) AS ok');
    const tryLead = () => {
      try {
        if (attempt.get(LEADER_LOCK)?.ok === true) lead();
      } catch (error) {
        opts.onError?.(error);
      }
    };
    // The connection was replaced and another daemon leads now: this one must not go on
    // leading (its caller stops it; a supervisor starts it again as a follower).
    (db as unknown as PostgresDatabase).listen('socialpub:lock-lost', (key) => {
      if (Number(key) === LEADER_LOCK) opts.onLost?.();
    });
    tryLead();
    if (!leader) {
      timer = setInterval(tryLead, opts.intervalMs ?? 1_000);
      timer.unref();
    }
  }
  return {
    get leader() {
      return leader;
    },
    whenLeader(fn) {
      if (leader) fn();
      else waiting.push(fn);
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
      waiting.length = 0;
    },
  };
}
