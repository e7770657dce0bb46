import { describe, expect, it } from 'vitest';
import { blueskySandbox } from '../../../src/platforms/bluesky/sim/sandbox';
import { openDatabase } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { sandboxStore } from '../../support/sandbox-records';

/** A record and the sandbox_posts row that says it was posted: written in one transaction, or neither. */

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const json = (body: unknown, token?: string) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

describe('the Bluesky sandbox in SQLite', () => {
  it('writes a record and its sandbox post together; when the post row cannot be written, the record is not there either', async () => {
    const db = openDatabase(':memory:');
    const sim = blueskySandbox({ store: sandboxStore(db), clock: new ManualClock(T0) });
    const call = (path: string, init?: RequestInit) => sim.app.request(`/bsky.social/xrpc/${path}`, init);
    const session = (await (await call('com.atproto.server.createSession', json({ identifier: 'gina.bsky.social', password: 'sandbox-app-password' }))).json()) as { accessJwt: string; did: string };
    const create = (rkey: string) => call('com.atproto.repo.createRecord', json({ repo: session.did, collection: 'app.bsky.feed.post', rkey, record: { $type: 'app.bsky.feed.post', text: `post ${rkey}`, createdAt: new Date(T0).toISOString() } }, session.accessJwt));
    const stored = () => db.prepare("SELECT count(*) FROM sandbox_state WHERE simulator = 'bluesky' AND kind = 'records'").pluck().get();
    const posted = () => db.prepare("SELECT count(*) FROM sandbox_posts WHERE platform = 'bluesky'").pluck().get();

    expect((await create('3aaaaaaaaaaa2')).status).toBe(200);
    expect([stored(), posted()]).toEqual([1, 1]);

    db.exec("CREATE TRIGGER full BEFORE INSERT ON sandbox_posts BEGIN SELECT RAISE(ABORT, 'disk full'); END;");
    const failed = await create('3aaaaaaaaaaa3');
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ error: 'InternalServerError', message: 'Internal Server Error: disk full' });
    expect([stored(), posted()]).toEqual([1, 1]);
    const missing = await call(`com.atproto.repo.getRecord?repo=${session.did}&collection=app.bsky.feed.post&rkey=3aaaaaaaaaaa3`);
    expect(((await missing.json()) as { error: string }).error).toBe('RecordNotFound');

    db.exec('DROP TRIGGER full');
    // The key is free: the failed write left nothing behind.
    expect((await create('3aaaaaaaaaaa3')).status).toBe(200);
    expect([stored(), posted()]).toEqual([2, 2]);
    db.close();
  });
});
