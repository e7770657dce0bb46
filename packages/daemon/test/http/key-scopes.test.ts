import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/database';
import { MIGRATIONS } from '../../src/store/migrations/index';
import { createApiKeysRepository } from '../../src/store/api-keys';
import { API, errorOf, harness, type Harness } from './harness';

type Published = { job_id: string; status: string; message: string; targets: { status: string }[] };
type ScopeRefusal = { code: string; message: string; details?: { path: string; message: string; required_scope?: string; key_scope?: string }[] };

const POST = { caption: 'hello', platforms: ['twitter'] };

/** A key of `scope` for the harness user, made through the API with the user's full key. */
async function keyOf(h: Harness, scope: 'full' | 'agent' | 'read'): Promise<string> {
  const res = await h.call('POST', `${API}/keys`, { body: { name: `${scope} key`, scope } });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { key: string; scope: string };
  expect(body.scope).toBe(scope);
  return body.key;
}

const as = (key: string) => ({ 'X-API-Key': key });

async function refusal(res: Response): Promise<ScopeRefusal> {
  expect(res.status).toBe(403);
  return (await errorOf(res)) as ScopeRefusal;
}

describe('an agent key', () => {
  it('gets its publish-now held as pending_approval, though the user has no approval workflow', async () => {
    const h = harness();
    h.connect(['twitter']);
    const agent = await keyOf(h, 'agent');
    const res = await h.call('POST', `${API}/content/publish`, { body: { ...POST, publish_now: true }, headers: as(agent) });
    expect(res.status).toBe(200);
    const held = (await res.json()) as Published;
    expect(held.status).toBe('pending_approval');
    expect(held.targets.map((t) => t.status)).toEqual(['pending_approval']);
    expect(held.message).toBe(`Waiting for a person's approval (every post of an agent key is) before publishing to twitter: socialpub schedule approve ${held.job_id}`);
    // Nothing reached the scheduler: a held target is not due.
    expect(h.store.jobs.get(held.job_id)?.targets.map((t) => t.status)).toEqual(['pending_approval']);
    // The same request with the user's full key publishes now, as today.
    const full = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, caption: 'other', publish_now: true } })).json()) as Published;
    expect(full.status).toBe('publishing');
  });

  it('gets a scheduled post held too, and a person releases it with a full key', async () => {
    const h = harness();
    h.connect(['twitter']);
    const agent = await keyOf(h, 'agent');
    const held = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, scheduled_for: '2026-12-25T12:00:00Z' }, headers: as(agent) })).json()) as Published;
    expect(held.status).toBe('pending_approval');
    const approved = await h.call('POST', `${API}/content/scheduled/approve?job_id=${held.job_id}`);
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { post: { status: string } }).post.status).toBe('scheduled');
  });

  it('is refused approve, reject, unpublish and GET /keys with 403 insufficient_scope naming the full scope', async () => {
    const h = harness();
    h.connect(['twitter']);
    const agent = await keyOf(h, 'agent');
    const held = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, publish_now: true }, headers: as(agent) })).json()) as Published;

    const approve = await refusal(await h.call('POST', `${API}/content/scheduled/approve?job_id=${held.job_id}`, { headers: as(agent) }));
    expect(approve.code).toBe('insufficient_scope');
    expect(approve.message).toBe("POST /api/agents/v1/content/scheduled/approve needs a key of scope full; this key's scope is agent (create one with socialpub keys create --scope full)");
    expect(approve.details).toEqual([{ path: 'scope', message: 'needs full', required_scope: 'full', key_scope: 'agent' }]);
    // Refused before the route ran: the post still waits.
    expect(h.store.jobs.get(held.job_id)?.targets.map((t) => t.status)).toEqual(['pending_approval']);

    const keys = await refusal(await h.call('GET', `${API}/keys`, { headers: as(agent) }));
    expect(keys).toMatchObject({ code: 'insufficient_scope', details: [{ required_scope: 'full', key_scope: 'agent' }] });
    for (const [method, path, body] of [
      ['POST', `/content/scheduled/reject?job_id=${held.job_id}`, undefined],
      ['POST', `/content/scheduled/unpublish?job_id=${held.job_id}`, undefined],
      ['POST', '/keys', { name: 'more' }],
      ['PATCH', '/settings', { timezone: 'Europe/Paris' }],
      ['PUT', '/queue', { slots: [] }],
      ['POST', '/webhooks', { url: 'https://example.com/hook' }],
      ['GET', '/webhooks', undefined],
      ['POST', '/connections/sandbox', { platform: 'bluesky' }],
      ['DELETE', '/connections/con_x', undefined],
      ['POST', '/review-links', { job_ids: [held.job_id] }],
      ['PUT', '/sandbox/faults', { faults: {} }],
    ] as const) {
      const res = await h.call(method, `${API}${path}`, { headers: as(agent), ...(body ? { body } : {}) });
      expect([method, path, res.status, (await errorOf(res)).code]).toEqual([method, path, 403, 'insufficient_scope']);
    }
    expect(h.store.apiKeys.list(h.user.id)).toHaveLength(2);
  });

  it('may edit, re-time and cancel its posts', async () => {
    const h = harness();
    h.connect(['twitter']);
    const agent = await keyOf(h, 'agent');
    const held = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, scheduled_for: '2026-12-25T12:00:00Z' }, headers: as(agent) })).json()) as Published;
    const edited = await h.call('PATCH', `${API}/content/scheduled?job_id=${held.job_id}`, { body: { caption: 'better', scheduled_for: '2026-12-25T13:00:00Z' }, headers: as(agent) });
    expect(edited.status).toBe(200);
    expect(((await edited.json()) as { post: { caption: string; status: string } }).post).toMatchObject({ caption: 'better', status: 'pending_approval' });
    expect((await h.call('DELETE', `${API}/content/scheduled?job_id=${held.job_id}`, { headers: as(agent) })).status).toBe(200);
    expect(h.store.jobs.get(held.job_id)?.targets.map((t) => t.status)).toEqual(['cancelled']);
  });

  it("re-times a post a person let through but may not rewrite it (403 insufficient_scope)", async () => {
    const h = harness();
    h.connect(['twitter']);
    const agent = await keyOf(h, 'agent');
    const scheduled = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, scheduled_for: '2026-12-25T12:00:00Z' } })).json()) as Published;
    expect(scheduled.status).toBe('scheduled');
    const rewrite = await refusal(await h.call('PATCH', `${API}/content/scheduled?job_id=${scheduled.job_id}`, { body: { caption: 'agent text' }, headers: as(agent) }));
    expect(rewrite).toMatchObject({ code: 'insufficient_scope', details: [{ required_scope: 'full', key_scope: 'agent' }] });
    expect(h.store.jobs.get(scheduled.job_id)?.caption).toBe('hello');
    const retimed = await h.call('PATCH', `${API}/content/scheduled?job_id=${scheduled.job_id}`, { body: { scheduled_for: '2026-12-25T14:00:00Z' }, headers: as(agent) });
    expect(retimed.status).toBe(200);
    expect(((await retimed.json()) as { post: { scheduled_for: string } }).post.scheduled_for).toBe('2026-12-25T14:00:00.000Z');
  });
});

describe('a read key', () => {
  it('cannot publish, cancel or re-time (403 naming the agent scope), and can read', async () => {
    const h = harness();
    h.connect(['twitter']);
    const read = await keyOf(h, 'read');
    const posted = (await (await h.call('POST', `${API}/content/publish`, { body: { ...POST, scheduled_for: '2026-12-25T12:00:00Z' } })).json()) as Published;

    const publish = await refusal(await h.call('POST', `${API}/content/publish`, { body: { ...POST, publish_now: true }, headers: as(read) }));
    expect(publish).toMatchObject({ code: 'insufficient_scope', details: [{ path: 'scope', required_scope: 'agent', key_scope: 'read' }] });
    const stored = (await (await h.call('GET', `${API}/content/scheduled?status=all`)).json()) as { posts: unknown[] };
    expect(stored.posts).toHaveLength(1);
    for (const [method, path, body] of [
      ['DELETE', `/content/scheduled?job_id=${posted.job_id}`, undefined],
      ['PATCH', `/content/scheduled?job_id=${posted.job_id}`, { scheduled_for: '2026-12-25T15:00:00Z' }],
      ['DELETE', '/content/series?series_id=ser_x', undefined],
      ['GET', '/keys', undefined],
    ] as const) {
      const res = await h.call(method, `${API}${path}`, { headers: as(read), ...(body ? { body } : {}) });
      expect([method, path, res.status, (await errorOf(res)).code]).toEqual([method, path, 403, 'insufficient_scope']);
    }

    const list = await h.call('GET', `${API}/content/scheduled`, { headers: as(read) });
    expect(list.status).toBe(200);
    expect(((await list.json()) as { posts: { job_id: string }[] }).posts.map((p) => p.job_id)).toEqual([posted.job_id]);
    expect((await h.call('GET', `${API}/platforms`, { headers: as(read) })).status).toBe(200);
    expect((await h.call('GET', `${API}/settings`, { headers: as(read) })).status).toBe(200);
    expect((await h.call('GET', `${API}/connections`, { headers: as(read) })).status).toBe(200);
    // POSTs that change nothing are reads: validating a post and the key itself.
    const validated = await h.call('POST', `${API}/content/validate`, { body: { ...POST, publish_now: true }, headers: as(read) });
    expect(((await validated.json()) as { valid: boolean }).valid).toBe(true);
  });
});

describe('the sandbox password of a connection', () => {
  it('is shown by GET /connections to a full key only: a read or agent key lists the connection without it', async () => {
    const h = harness();
    const made = await h.call('POST', `${API}/connections/sandbox`, { body: { platform: 'bluesky' } });
    expect(made.status).toBe(201);
    const password = ((await made.json()) as { sandbox_password: string }).sandbox_password;
    expect(password).toMatch(/\S{8,}/);
    type Listed = { data: Record<string, unknown>[] };
    const full = (await (await h.call('GET', `${API}/connections`)).json()) as Listed;
    expect(full.data.map((c) => [c.platform, c.sandbox_password])).toEqual([['bluesky', password]]);
    for (const scope of ['read', 'agent'] as const) {
      const res = await h.call('GET', `${API}/connections`, { headers: as(await keyOf(h, scope)) });
      expect(res.status).toBe(200);
      const listed = (await res.json()) as Listed;
      expect(listed.data.map((c) => [c.platform, c.sandbox, 'sandbox_password' in c])).toEqual([['bluesky', true, false]]);
      expect(JSON.stringify(listed)).not.toContain(password);
    }
  });
});

describe('the scope of a key', () => {
  it('is answered by POST /auth/validate for each scope', async () => {
    const h = harness();
    for (const scope of ['agent', 'read'] as const) {
      const res = await h.call('POST', `${API}/auth/validate`, { headers: as(await keyOf(h, scope)) });
      expect(((await res.json()) as { scope: string }).scope).toBe(scope);
    }
    const full = (await (await h.call('POST', `${API}/auth/validate`)).json()) as { scope: string; user: { email: string } };
    expect(full).toMatchObject({ scope: 'full', user: { email: 'owner@example.com' } });
  });

  it('is full when none is asked, listed by GET /keys, kept by a rotation, and one of full|agent|read', async () => {
    const h = harness();
    const plain = (await (await h.call('POST', `${API}/keys`, { body: { name: 'plain' } })).json()) as { id: string; scope: string };
    expect(plain.scope).toBe('full');
    const agent = (await (await h.call('POST', `${API}/keys`, { body: { name: 'bot', scope: 'agent' } })).json()) as { id: string };
    const rotated = (await (await h.call('POST', `${API}/keys/${agent.id}/rotate`)).json()) as { id: string; scope: string; key: string };
    expect(rotated.scope).toBe('agent');
    expect(((await (await h.call('POST', `${API}/auth/validate`, { headers: as(rotated.key) })).json()) as { scope: string }).scope).toBe('agent');
    const listed = (await (await h.call('GET', `${API}/keys`)).json()) as { data: { name: string; scope: string }[] };
    // Made in the same millisecond of the clock: listed in id order, so compared as a set.
    expect(listed.data.map((k) => [k.name, k.scope]).sort()).toEqual([['bot', 'agent'], ['plain', 'full'], ['test', 'full']]);

    const bad = await h.call('POST', `${API}/keys`, { body: { scope: 'admin' } });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).details).toEqual([{ path: 'scope', message: 'must be one of full, agent, read' }]);
  });

  it('is full for every key made before scopes existed (migration 180)', () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const m of [...MIGRATIONS].filter((x) => x.version < 180).sort((a, b) => a.version - b.version)) {
      m.before?.(db);
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations VALUES (?, ?, 0)').run(m.version, m.name);
    }
    db.prepare("INSERT INTO users (id, email, created_at) VALUES ('u', 'a@example.com', 0)").run();
    db.prepare("INSERT INTO api_keys (id, user_id, name, secret_hash, prefix, created_at) VALUES ('key_old', 'u', 'old', 'ab', 'sp_key_old_', 0)").run();
    migrate(db);
    expect(createApiKeysRepository(db).get('key_old')?.scope).toBe('full');
    expect(() => db.prepare("UPDATE api_keys SET scope = 'admin' WHERE id = 'key_old'").run()).toThrow(/CHECK constraint failed/);
  });
});
