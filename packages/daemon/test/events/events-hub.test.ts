import { afterEach, describe, expect, it } from 'vitest';
import { EventsHub } from '../../src/events/events-hub';
import { type DB } from '../../src/store/database';
import { afterCommitNotices, openTestDatabase } from '../support/store-dialects';
import { createEventsRepository } from '../../src/store/events';
import { silentLogger } from '../../src/util/logger';

// The next turn of the event loop on SQLite; on PostgreSQL, once the commit's NOTIFY is back.
const nextTurn = afterCommitNotices;
const opened: DB[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function setup() {
  const db = openTestDatabase(':memory:');
  opened.push(db);
  db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'u@example.com', 0)").run();
  const events = createEventsRepository(db);
  const hub = new EventsHub(events, silentLogger); // never start()ed: no poll, only what watchAppends sees
  const woken: number[] = [];
  hub.subscribe((last) => woken.push(last));
  const append = () => events.append({ userId: 'u', type: 'post.cancelled', data: {}, at: 0 });
  return { db, events, hub, woken, append };
}

describe('EventsHub.watchAppends: woken by this process’s own event writes, after they commit', () => {
  it('wakes listeners once per run of writes, after the transaction has committed, with the newest id', async () => {
    const { db, hub, woken, append } = setup();
    hub.watchAppends();
    let ids: number[] = [];
    db.transaction(() => {
      ids = [append(), append()];
    })();
    expect(woken).toEqual([]); // not inside the writing code
    await nextTurn();
    expect(woken).toEqual([ids[1]]);
    append();
    await nextTurn();
    expect(woken).toEqual([ids[1], (ids[1] as number) + 1]);
  });

  it('a rolled-back write wakes nobody', async () => {
    const { db, hub, woken, append } = setup();
    hub.watchAppends();
    expect(() =>
      db.transaction(() => {
        append();
        throw new Error('roll back');
      })(),
    ).toThrow('roll back');
    await nextTurn();
    expect(woken).toEqual([]);
  });

  it('without it (or once stopped) a write wakes nobody until a check: another connection’s writes wait for the poll', async () => {
    const { hub, woken, append } = setup();
    append();
    await nextTurn();
    expect(woken).toEqual([]);
    hub.check();
    expect(woken).toEqual([1]);
    hub.watchAppends();
    hub.stop();
    append();
    await nextTurn();
    expect(woken).toEqual([1]);
  });
});
