import { describe, expect, it } from 'vitest';
import { API, errorOf, harness, type Harness } from './harness';

/**
 * Drafts (issue 38, item 2: Compose saves as you type, in the daemon, so a draft survives a
 * reload and shows on another device): save, list newest change first, replace, delete;
 * each draft its owner's alone; the content a JSON object of at most 64 KB; 100 a user.
 */
type Draft = { id: string; content: Record<string, unknown>; created_at: string; updated_at: string };

async function json<T>(res: Response, status: number): Promise<T> {
  if (res.status !== status) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const list = async (h: Harness, key?: string) => (await json<{ drafts: Draft[] }>(await h.call('GET', `${API}/drafts`, key ? { headers: { 'X-API-Key': key } } : {}), 200)).drafts;

describe('drafts', () => {
  it('saves a draft, lists it, replaces its content as it is typed, and deletes it', async () => {
    const h = harness();
    expect(await list(h)).toEqual([]);
    const first = (await json<{ draft: Draft }>(await h.call('POST', `${API}/drafts`, { body: { content: { caption: 'Spring', platforms: ['twitter'] } } }), 201)).draft;
    expect(first).toEqual({ id: expect.stringMatching(/^drf_[0-9a-z]{20}$/), content: { caption: 'Spring', platforms: ['twitter'] }, created_at: '2026-12-25T09:00:00.000Z', updated_at: '2026-12-25T09:00:00.000Z' });
    await h.clock.advance(60_000);
    const second = (await json<{ draft: Draft }>(await h.call('POST', `${API}/drafts`, { body: { content: { caption: 'Other' } } }), 201)).draft;
    expect((await list(h)).map((d) => d.id)).toEqual([second.id, first.id]);

    await h.clock.advance(60_000);
    const updated = (await json<{ draft: Draft }>(await h.call('PUT', `${API}/drafts/${first.id}`, { body: { content: { caption: 'Spring sale', platforms: ['twitter', 'threads'] } } }), 200)).draft;
    expect(updated).toEqual({ ...first, content: { caption: 'Spring sale', platforms: ['twitter', 'threads'] }, updated_at: '2026-12-25T09:02:00.000Z' });
    // The most recently changed first.
    expect((await list(h)).map((d) => [d.id, d.content.caption])).toEqual([
      [first.id, 'Spring sale'],
      [second.id, 'Other'],
    ]);

    expect((await h.call('DELETE', `${API}/drafts/${first.id}`)).status).toBe(204);
    expect((await list(h)).map((d) => d.id)).toEqual([second.id]);
    expect((await h.call('DELETE', `${API}/drafts/${first.id}`)).status).toBe(404);
    expect((await h.call('PUT', `${API}/drafts/${first.id}`, { body: { content: {} } })).status).toBe(404);
  });

  it("keeps each user's drafts their own: another's is unknown to list, change and delete", async () => {
    const h = harness();
    const mine = (await json<{ draft: Draft }>(await h.call('POST', `${API}/drafts`, { body: { content: { caption: 'Mine' } } }), 201)).draft;
    const other = h.addUser('other@example.com');
    expect(await list(h, other.key)).toEqual([]);
    const put = await h.call('PUT', `${API}/drafts/${mine.id}`, { body: { content: { caption: 'Theirs' } }, headers: { 'X-API-Key': other.key } });
    expect(put.status).toBe(404);
    expect((await h.call('DELETE', `${API}/drafts/${mine.id}`, { headers: { 'X-API-Key': other.key } })).status).toBe(404);
    expect((await list(h)).map((d) => d.content.caption)).toEqual(['Mine']);
  });

  it('refuses content that is not an object or is over 64 KB, an unknown field, and a 101st draft', async () => {
    const h = harness();
    for (const body of [{ content: 'text' }, { content: ['a'] }, {}, { content: { caption: 'x'.repeat(64 * 1024) } }, { content: {}, extra: 1 }]) {
      const res = await h.call('POST', `${API}/drafts`, { body });
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await errorOf(res)).code).toBe('invalid_request');
    }
    for (let i = 0; i < 100; i++) await json(await h.call('POST', `${API}/drafts`, { body: { content: { n: i } } }), 201);
    const over = await h.call('POST', `${API}/drafts`, { body: { content: { n: 100 } } });
    expect(over.status).toBe(409);
    expect((await errorOf(over)).message).toContain('100 drafts');
  });
});
