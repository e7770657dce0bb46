import { describe, expect, it } from 'vitest';
import { startPresence } from '../../src/cluster/presence';
import { createCommits } from '../../src/store/commits';
import { createDaemonsRepository } from '../../src/store/daemons';
import { ManualClock } from '../../src/util/clock';
import { useTempDirs } from '../support/temp-dirs';
import { walFileDb } from '../support/wal-file-db';

const tempDir = useTempDirs();

describe('presence', () => {
  it('writes each heartbeat without an fsync of its own on the event loop (synchronous NORMAL), and the connection stays FULL', () => {
    const { db } = walFileDb(tempDir('sp-presence-'));
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    const commits = createCommits(db, 'full');
    const daemons = createDaemonsRepository(db);
    // The setting each beat and prune commits with.
    const seen: unknown[] = [];
    const watched = {
      ...daemons,
      beat: (d: Parameters<typeof daemons.beat>[0]) => {
        seen.push(db.pragma('synchronous', { simple: true }));
        daemons.beat(d);
      },
      prune: (before: number) => {
        seen.push(db.pragma('synchronous', { simple: true }));
        return daemons.prune(before);
      },
    };
    const clock = new ManualClock(Date.UTC(2030, 0, 1));
    const presence = startPresence({
      daemons: watched,
      leadership: { leader: true, whenLeader: (fn) => fn(), stop: () => undefined },
      clock,
      id: 'd1',
      version: 'test',
      url: () => 'http://127.0.0.1:1',
      relaxed: commits.relaxed,
    });
    try {
      // The first beat is written at start: its row is there, committed with NORMAL (1), not FULL (2).
      expect(presence.alive().map((d) => d.id)).toEqual(['d1']);
      expect(seen).toEqual([1, 1]);
      expect(db.pragma('synchronous', { simple: true })).toBe(2);
    } finally {
      presence.stop();
      commits.close();
      db.close();
    }
  });
});
