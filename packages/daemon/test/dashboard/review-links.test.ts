import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../http/harness';
import { API, dashboardHarness } from './fixture';

let cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup) c();
  cleanup = [];
});

const tweet = (caption: string) => ({ caption, platforms: ['twitter'], scheduled_for: '2026-12-26T10:00:00Z' });

async function setup(opts: Parameters<typeof dashboardHarness>[0] = {}) {
  const h = dashboardHarness(opts);
  cleanup.push(h.remove);
  h.connect(['twitter']);
  h.store.users.setApprovalWorkflow(h.user.id, true);
  const publish = async (caption: string, key = h.key) => ((await (await h.call('POST', `${API}/content/publish`, { body: tweet(caption), headers: { 'X-API-Key': key } })).json()) as { job_id: string }).job_id;
  const shared = [await publish('first'), await publish('second')];
  const unshared = await publish('not shared');
  const created = await h.call('POST', `${API}/review-links`, { body: { job_ids: shared } });
  const link = (await created.json()) as { id: string; url: string; expires_at: string; job_ids: string[] };
  const token = link.url.split('/r/')[1] as string;
  const pub = (path = '', init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
    Promise.resolve(
      h.app.request(`${API}/review-links/public/${token}${path}`, {
        method: init.method ?? 'GET',
        headers: { ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
        ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      }),
    );
  const decide = (job_id: string, decision: string, comment?: string, version = 1) =>
    pub('/decisions', { method: 'POST', body: { job_id, decision, version, ...(comment !== undefined ? { comment } : {}) } });
  const status = async (jobId: string) => ((await (await h.call('GET', `${API}/content/scheduled?job_id=${jobId}`)).json()) as { post: { status: string; caption: string } }).post;
  return { h, created, link, token, shared, unshared, pub, decide, status, publish };
}

describe('review links (owner side)', () => {
  it('creates a link with an absolute url, 72 h by default, the token stored only as a hash; lists without the token', async () => {
    const { h, created, link, token, shared } = await setup();
    expect(created.status).toBe(201);
    expect(link.url).toBe(`http://localhost/r/${token}`);
    expect(token).toMatch(/^[0-9a-z]{43}$/);
    expect(link.job_ids).toEqual(shared);
    expect(Date.parse(link.expires_at) - h.clock.now()).toBe(72 * 3_600_000);
    const list = (await (await h.call('GET', `${API}/review-links`)).json()) as { data: { id: string; status: string; job_ids: string[] }[] };
    expect(list.data).toEqual([expect.objectContaining({ id: link.id, status: 'active', job_ids: shared })]);
    expect(JSON.stringify(list)).not.toContain(token);
    expect(JSON.stringify(h.db.prepare('SELECT * FROM review_links').all())).not.toContain(token);
  });

  it('pages GET /review-links: limit, next_cursor to the end, every link once newest first; a cursor not from the list is a 400', async () => {
    const { h, shared, link } = await setup();
    const ids = [link.id];
    for (let i = 0; i < 6; i++) {
      if (i % 2 === 0) await h.clock.advance(1_000); // some links share a creation time: the id orders them
      ids.push(((await (await h.call('POST', `${API}/review-links`, { body: { job_ids: [shared[0]] } })).json()) as { id: string }).id);
    }
    const seen: string[] = [];
    const sizes: number[] = [];
    let cursor: string | null = null;
    do {
      const res = await h.call('GET', `${API}/review-links?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      const page = (await res.json()) as { data: { id: string }[]; next_cursor: string | null };
      sizes.push(page.data.length);
      seen.push(...page.data.map((l) => l.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(sizes).toEqual([3, 3, 1]);
    const whole = (await (await h.call('GET', `${API}/review-links?limit=200`)).json()) as { data: { id: string }[] };
    expect(seen).toEqual(whole.data.map((l) => l.id));
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(seen[seen.length - 1]).toBe(link.id); // the oldest last
    // Without a limit: the first 50, and no next page here.
    expect(((await (await h.call('GET', `${API}/review-links`)).json()) as { next_cursor: string | null }).next_cursor).toBeNull();
    const bad = await h.call('GET', `${API}/review-links?cursor=rvl_nope`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details).toEqual([{ path: 'cursor', message: 'unknown cursor' }]);
    expect((await h.call('GET', `${API}/review-links?limit=0`)).status).toBe(400);
    // Another user's link is no cursor for this user.
    const other = h.addUser('other@example.com');
    const theirs = await h.call('GET', `${API}/review-links?cursor=${link.id}`, { headers: { 'X-API-Key': other.key } });
    expect(theirs.status).toBe(400);
  });

  it('uses the public URL when one is configured, and takes expires_in_hours', async () => {
    const { h, shared } = await setup({ config: { publicUrl: 'https://social.example.com' } });
    const res = await h.call('POST', `${API}/review-links`, { body: { job_ids: [shared[0]], expires_in_hours: 2 } });
    const link = (await res.json()) as { url: string; expires_at: string };
    expect(link.url).toMatch(/^https:\/\/social\.example\.com\/r\/[0-9a-z]{43}$/);
    expect(Date.parse(link.expires_at) - h.clock.now()).toBe(2 * 3_600_000);
  });

  it('refuses bad input and another user’s job', async () => {
    const { h, publish } = await setup();
    const bad = await h.call('POST', `${API}/review-links`, { body: { job_ids: [], expires_in_hours: 0, extra: 1 } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details?.map((d) => d.path).sort()).toEqual(['expires_in_hours', 'extra', 'job_ids']);
    const other = h.addUser('other@example.com');
    h.connect(['twitter'], other.user.id);
    const theirs = await publish('theirs', other.key);
    const res = await h.call('POST', `${API}/review-links`, { body: { job_ids: [theirs] } });
    expect(res.status).toBe(403);
    expect((await h.call('POST', `${API}/review-links`, { body: { job_ids: ['job_doesnotexist'] } })).status).toBe(404);
  });
});

describe('review links (public side)', () => {
  it('serves the review-link page, not indexed, with the strict headers; an unknown token gets a page with no data', async () => {
    const { h, token } = await setup();
    const page = await h.app.request(`/r/${token}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>review link</title>');
    expect(page.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const unknown = await h.app.request(`/r/${'a'.repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(await unknown.text()).not.toContain('first');
  });

  it('shows only the link’s posts and approves one with a comment: the event records the review link', async () => {
    const { h, pub, decide, shared, unshared, status, link } = await setup();
    const read = await pub();
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    const body = (await read.json()) as { expires_at: string; posts: { job_id: string; caption: string }[]; decisions: unknown[] };
    expect(body.posts.map((p) => p.job_id)).toEqual(shared);
    expect(body.posts.map((p) => p.caption)).toEqual(['first', 'second']);
    expect(JSON.stringify(body)).not.toContain(unshared);
    expect(body.decisions).toEqual([]);

    const approved = await decide(shared[0] as string, 'approve', 'Looks good');
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { post: { status: string } }).post.status).toBe('scheduled');
    const rejected = await decide(shared[1] as string, 'reject', 'Wrong date');
    expect(((await rejected.json()) as { post: { status: string } }).post.status).toBe('cancelled');

    const events = h.db.prepare("SELECT type, data FROM events WHERE type IN ('post.approved', 'post.rejected') ORDER BY id").all() as { type: string; data: string }[];
    expect(events.map((e) => [e.type, JSON.parse(e.data)])).toEqual([
      ['post.approved', expect.objectContaining({ job_id: shared[0], source: 'review_link', review_link_id: link.id, comment: 'Looks good' })],
      ['post.rejected', expect.objectContaining({ job_id: shared[1], source: 'review_link', review_link_id: link.id, comment: 'Wrong date' })],
    ]);
    const after = (await (await pub()).json()) as { decisions: { job_id: string; decision: string; comment: string }[] };
    expect(after.decisions.map((d) => [d.job_id, d.decision, d.comment])).toEqual([
      [shared[0], 'approve', 'Looks good'],
      [shared[1], 'reject', 'Wrong date'],
    ]);
    // A second decision on a decided post is a conflict, and changes nothing.
    expect((await decide(shared[1] as string, 'approve')).status).toBe(409);
    expect((await status(shared[1] as string)).status).toBe('cancelled');
  });

  it('names the version it was made on: refused (409) once the post was edited since, accepted on the version shown now', async () => {
    const { h, pub, decide, shared, status } = await setup();
    const read = (await (await pub()).json()) as { posts: { job_id: string; version: number }[] };
    expect(read.posts.map((p) => p.version)).toEqual([1, 1]);
    // The owner edits the caption while the reviewer has the page open.
    const edited = await h.call('PATCH', `${API}/content/scheduled?job_id=${shared[0]}`, { body: { caption: 'first, rewritten' } });
    expect(((await edited.json()) as { post: { version: number } }).post.version).toBe(2);
    const stale = await decide(shared[0] as string, 'approve', 'ok', 1);
    expect(stale.status).toBe(409);
    const error = await errorOf(stale);
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('decided on version 1, it is now version 2');
    expect((await status(shared[0] as string)).status).toBe('pending_approval');
    expect(h.db.prepare("SELECT count(*) AS n FROM events WHERE type = 'post.approved'").get()).toEqual({ n: 0 });
    // A re-time is not an edit of what is published: the version stays.
    await h.call('PATCH', `${API}/content/scheduled?job_id=${shared[0]}`, { body: { scheduled_for: '2026-12-27T10:00:00Z' } });
    const again = (await (await pub()).json()) as { posts: { job_id: string; version: number; caption: string }[] };
    expect(again.posts[0]).toMatchObject({ caption: 'first, rewritten', version: 2 });
    const fresh = await decide(shared[0] as string, 'approve', 'ok', 2);
    expect(fresh.status).toBe(200);
    expect((await status(shared[0] as string)).status).toBe('scheduled');
    // Without a version there is nothing to check the decision against.
    const unnamed = await pub('/decisions', { method: 'POST', body: { job_id: shared[1], decision: 'approve' } });
    expect(unnamed.status).toBe(400);
    expect((await errorOf(unnamed)).details?.map((d) => d.path)).toEqual(['version']);
  });

  it('cannot read or change anything beyond its posts’ decision', async () => {
    const { h, pub, decide, token, unshared, shared, status } = await setup();
    // Another post of the same owner: as unknown as anything else.
    const other = await decide(unshared, 'approve');
    expect(other.status).toBe(404);
    expect((await status(unshared)).status).toBe('pending_approval');
    // Only the decision: no caption edits, no other fields.
    const edit = await pub('/decisions', { method: 'POST', body: { job_id: shared[0], decision: 'approve', version: 1, caption: 'pwned' } });
    expect(edit.status).toBe(400);
    expect((await status(shared[0] as string)).caption).toBe('first');
    expect((await decide(shared[0] as string, 'cancel')).status).toBe(400);
    // No other method or sub-path of the public API.
    for (const [method, path] of [['DELETE', ''], ['PATCH', ''], ['POST', ''], ['GET', '/decisions'], ['GET', '/../../content/scheduled'], ['PUT', '/decisions']] as const) {
      const res = await pub(path, { method });
      expect([401, 404], `${method} ${path}`).toContain(res.status);
    }
    // The token is no API key and no session.
    for (const headers of [{ Authorization: `Bearer ${token}` }, { 'X-API-Key': token }, { Cookie: `sp_session=${token}` }]) {
      const res = await h.app.request(`${API}/content/scheduled`, { headers });
      expect(res.status).toBe(401);
    }
    expect((await h.app.request('/', { headers: { Cookie: `sp_session=${token}` } })).status).toBe(303);
    // Nor does the owner's session reach the owner API through it.
    expect((await h.app.request(`${API}/review-links`)).status).toBe(401);
  });

  it('is refused (410) after revocation, for reading and deciding, and its page is gone', async () => {
    const { h, pub, decide, shared, link, token, status } = await setup();
    expect((await h.call('DELETE', `${API}/review-links/${link.id}`)).status).toBe(204);
    const read = await pub();
    expect(read.status).toBe(410);
    expect((await errorOf(read)).code).toBe('gone');
    expect((await decide(shared[0] as string, 'approve')).status).toBe(410);
    expect((await status(shared[0] as string)).status).toBe('pending_approval');
    expect((await h.app.request(`/r/${token}`)).status).toBe(404);
    const list = (await (await h.call('GET', `${API}/review-links`)).json()) as { data: { status: string }[] };
    expect(list.data[0]?.status).toBe('revoked');
    expect((await h.call('DELETE', `${API}/review-links/${link.id}`, { headers: { 'X-API-Key': h.addUser('x@example.com').key } })).status).toBe(404);
  });

  it('is refused (410) after it expires (the injected clock)', async () => {
    const { h, pub, decide, shared, status } = await setup();
    await h.clock.advance(72 * 3_600_000 - 1);
    expect((await pub()).status).toBe(200);
    await h.clock.advance(1);
    expect((await pub()).status).toBe(410);
    expect((await decide(shared[0] as string, 'approve')).status).toBe(410);
    expect((await status(shared[0] as string)).status).toBe('pending_approval');
  });

  it('counts unknown tokens of the page /r/{token} as the API counts them: the page and the API both answer 429 after', async () => {
    const { h, pub, token } = await setup({ config: { rateLimitsEnabled: true, rateLimits: { auth_failure: { limit: 3 } } } });
    expect((await h.app.request(`/r/${token}`)).status).toBe(200); // a good token is no failure
    for (let i = 0; i < 3; i++) expect((await h.app.request(`/r/${'c'.repeat(43)}`)).status).toBe(404);
    const page = await h.app.request(`/r/${token}`);
    expect(page.status).toBe(429);
    expect(Number(page.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(await page.text()).toContain('rate limited (failed authentications from this address: 3 per 10 minutes); try again in');
    expect((await pub()).status).toBe(429);
  });

  it('answers with Referrer-Policy: no-referrer, the token being in its URL', async () => {
    const { pub, decide, shared } = await setup();
    expect((await pub()).headers.get('Referrer-Policy')).toBe('no-referrer');
    expect((await decide(shared[0] as string, 'approve')).headers.get('Referrer-Policy')).toBe('no-referrer');
  });

  it('counts unknown tokens against the address’s failed-authentication limit', async () => {
    const { h, pub } = await setup({ config: { rateLimitsEnabled: true, rateLimits: { auth_failure: { limit: 3 } } } });
    for (let i = 0; i < 3; i++) expect((await h.app.request(`${API}/review-links/public/${'b'.repeat(43)}`)).status).toBe(404);
    expect((await h.app.request(`${API}/review-links/public/${'b'.repeat(43)}`)).status).toBe(429);
    expect((await pub()).status).toBe(429);
  });
});
