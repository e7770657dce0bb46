import type { InboxList } from '@socialpub/core';
import { describe, expect, it } from 'vitest';
import { inboxComment } from '../support/inbox-items';
import { API, errorOf, harness } from './harness';

/** The harness with a post to comment under, and a comment of its user written at `createdAt`. */
function setup() {
  const h = harness();
  h.db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_1', ?, 'c', '[]', 0, 0, 0)").run(h.user.id);
  const comment = (n: number, createdAt: number) => inboxComment(n, { userId: h.user.id, createdAt });
  return { h, comment };
}

const list = async (h: ReturnType<typeof harness>, query: string) => (await (await h.call('GET', `${API}/inbox${query}`)).json()) as InboxList;

describe('GET /inbox order', () => {
  it('lists by created_at (when written, the time shown), newest first, whatever order the rounds found them in, page by page', async () => {
    const { h, comment } = setup();
    const now = h.clock.now();
    // Found oldest-written first: received order would be 3, 2, 1 newest first.
    h.store.inbox.addItems([comment(1, now - 60_000)], now);
    h.store.inbox.addItems([comment(2, now - 7_200_000)], now + 1_000);
    h.store.inbox.addItems([comment(3, now - 86_400_000)], now + 2_000);

    const whole = await list(h, '');
    expect(whole.items.map((i) => [i.id, i.created_at])).toEqual([
      ['inb_0001', new Date(now - 60_000).toISOString()],
      ['inb_0002', new Date(now - 7_200_000).toISOString()],
      ['inb_0003', new Date(now - 86_400_000).toISOString()],
    ]);

    const walked: string[] = [];
    let cursor: string | null = null;
    do {
      const page: InboxList = await list(h, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.items.map((i) => i.id));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(walked).toEqual(['inb_0001', 'inb_0002', 'inb_0003']);
  });

  it('goes on from the item of a cursor given in received order before the upgrade; a cursor naming no item of the caller is a 400', async () => {
    const { h, comment } = setup();
    const now = h.clock.now();
    h.store.inbox.addItems([comment(1, now - 60_000), comment(2, now - 7_200_000), comment(3, now - 86_400_000)], now);
    // The old form: base64url of "received_at:id".
    const old = (id: string) => Buffer.from(`${now}:${id}`).toString('base64url');
    expect((await list(h, `?cursor=${old('inb_0001')}`)).items.map((i) => i.id)).toEqual(['inb_0002', 'inb_0003']);

    const other = h.addUser('other@example.com');
    const refusedForOther = await h.call('GET', `${API}/inbox?cursor=${old('inb_0001')}`, { headers: { 'X-API-Key': other.key } });
    expect(refusedForOther.status).toBe(400);
    expect((await errorOf(refusedForOther)).message).toBe('cursor is not one this list gave');
    const unknown = await h.call('GET', `${API}/inbox?cursor=${old('inb_0009')}`);
    expect(unknown.status).toBe(400);
  });
});
