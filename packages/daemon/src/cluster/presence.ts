import { hostname } from 'node:os';
import type { DaemonRecord, DaemonsRepository } from '../store/daemons';
import type { Clock } from '../util/clock';
import type { Leadership } from './leadership';

/** How often a daemon renews its row, and how old a row may be before it counts as a dead daemon's. */
export const HEARTBEAT_MS = 5_000;
export const STALE_AFTER_MS = 3 * HEARTBEAT_MS;

/**
 * This daemon's place among the daemons alive over one database: `index` of `of`, counted
 * in the order they started (the publisher's share of the due targets, publisher/share.ts).
 */
export interface Share {
  index: number;
  of: number;
}

export interface Presence {
  readonly id: string;
  /** The daemons alive now (this one included), oldest first. */
  alive(): DaemonRecord[];
  /**
   * This daemon's place among those alive at the last heartbeat (by start, oldest first):
   * its share of the due targets (publisher/share.ts); null when it is alone or not listed yet.
   */
  share(): Share | null;
  stop(): void;
}

/**
 * This daemon's heartbeat row in `daemons` (migration 205): written at start and every
 * HEARTBEAT_MS, removed when it stops; the leader also forgets rows gone stale.
 *
 * `relaxed` commits each beat without an fsync of its own (store/commits.ts `relaxed`,
 * synchronous=NORMAL): a beat lost to a power failure is written again 5 s later, while an
 * fsync inside the beat's COMMIT would hold the event loop, and every target falling due
 * meanwhile, for as long as the disk takes (tens of ms on a busy one) every 5 s.
 */
export function startPresence(o: {
  daemons: DaemonsRepository;
  leadership: Leadership;
  clock: Clock;
  id: string;
  version: string;
  url: () => string | null;
  relaxed?: <T>(fn: () => T) => T;
  onError?: (error: unknown) => void;
  /** How often the row is renewed and the shares read again (default HEARTBEAT_MS; at most STALE_AFTER_MS / 3). */
  heartbeatMs?: number;
}): Presence {
  const startedAt = o.clock.now();
  const relaxed = o.relaxed ?? (<T>(fn: () => T): T => fn());
  let share: Share | null = null;
  const beat = () => {
    const now = o.clock.now();
    try {
      relaxed(() => o.daemons.beat({ id: o.id, host: hostname(), pid: process.pid, url: o.url(), version: o.version, leader: o.leadership.leader, startedAt, heartbeatAt: now }));
      if (o.leadership.leader) relaxed(() => o.daemons.prune(now - 4 * STALE_AFTER_MS));
      // Read once a heartbeat, not at each dispatch: a daemon joining or gone shifts the
      // shares within HEARTBEAT_MS (meanwhile a target is at worst looked at twice, or late
      // by the publisher's grace).
      const alive = o.daemons.live(now - STALE_AFTER_MS);
      const index = alive.findIndex((d) => d.id === o.id);
      share = index < 0 || alive.length < 2 ? null : { index, of: alive.length };
    } catch (error) {
      o.onError?.(error);
    }
  };
  beat();
  const timer = setInterval(beat, Math.min(o.heartbeatMs ?? HEARTBEAT_MS, STALE_AFTER_MS / 3));
  timer.unref();
  return {
    id: o.id,
    alive: () => o.daemons.live(o.clock.now() - STALE_AFTER_MS),
    share: () => share,
    stop() {
      clearInterval(timer);
      try {
        o.daemons.remove(o.id);
      } catch (error) {
        o.onError?.(error);
      }
    },
  };
}
