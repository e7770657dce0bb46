import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/database';
import { MIGRATIONS } from '../../src/store/migrations/index';
import { createUsersRepository } from '../../src/store/users';
import { API, harness } from './harness';

const later = '2026-12-25T12:00:00Z';
const body = { caption: 'from an agent', platforms: ['twitter'], scheduled_for: later };

interface Published {
  job_id: string;
  status: string;
  message: string;
}

describe('X-SocialPub-Source and agent-approval', () => {
  it('records how a job was made (api by default), shown by the list and get views', async () => {
    const h = harness();
    h.connect(['twitter']);
    const plain = (await (await h.call('POST', `${API}/content/publish`, { body })).json()) as Published;
    const cli = (await (await h.call('POST', `${API}/content/publish`, { body, headers: { 'X-SocialPub-Source': 'cli' } })).json()) as Published;
    const one = (await (await h.call('GET', `${API}/content/scheduled?job_id=${cli.job_id}`)).json()) as { post: { source: string } };
    expect(one.post.source).toBe('cli');
    const list = (await (await h.call('GET', `${API}/content/scheduled`)).json()) as { posts: { job_id: string; source: string }[] };
    expect(list.posts.map((p) => [p.job_id, p.source])).toEqual([
      [plain.job_id, 'api'],
      [cli.job_id, 'cli'],
    ].sort((a, b) => (a[0] as string).localeCompare(b[0] as string)));
  });

  it('refuses an unknown source with a 400 naming the accepted ones, storing nothing', async () => {
    const h = harness();
    h.connect(['twitter']);
    const r = await h.call('POST', `${API}/content/publish`, { body, headers: { 'X-SocialPub-Source': 'robot' } });
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: { message: string } }).error.message).toBe('header X-SocialPub-Source: must be one of api, mcp, cli');
    expect(h.scheduler.changed).toEqual([]);
  });

  it('holds an mcp job while agent-approval is on (a new user has it on), and only a person may release it', async () => {
    const h = harness();
    h.connect(['twitter']);
    expect(h.user.agentApproval).toBe(true);
    const held = (await (await h.call('POST', `${API}/content/publish`, { body, headers: { 'X-SocialPub-Source': 'mcp' } })).json()) as Published;
    expect(held.status).toBe('pending_approval');
    expect(held.message).toBe(`Waiting for a person's approval (agent-approval is on) before publishing to twitter: socialpub schedule approve ${held.job_id}`);
    // The same request through the API or the CLI is not held.
    expect(((await (await h.call('POST', `${API}/content/publish`, { body: { ...body, caption: 'by hand' } })).json()) as Published).status).toBe('scheduled');

    const byAgent = await h.call('POST', `${API}/content/scheduled/approve?job_id=${held.job_id}`, { headers: { 'X-SocialPub-Source': 'mcp' } });
    expect(byAgent.status).toBe(403);
    expect(((await byAgent.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'forbidden', message: expect.stringContaining('a person approves it') });
    const byPerson = await h.call('POST', `${API}/content/scheduled/approve?job_id=${held.job_id}`, { headers: { 'X-SocialPub-Source': 'cli' } });
    expect(byPerson.status).toBe(200);
    expect(((await byPerson.json()) as { post: { status: string; source: string } }).post).toMatchObject({ status: 'scheduled', source: 'mcp' });
  });

  it('lets mcp jobs through, and lets an agent approve, once agent-approval is off', async () => {
    const h = harness();
    h.connect(['twitter']);
    h.store.users.setAgentApproval(h.user.id, false);
    const free = (await (await h.call('POST', `${API}/content/publish`, { body, headers: { 'X-SocialPub-Source': 'mcp' } })).json()) as Published;
    expect(free.status).toBe('scheduled');
    const asked = (await (await h.call('POST', `${API}/content/publish`, { body: { ...body, require_approval: true }, headers: { 'X-SocialPub-Source': 'mcp' } })).json()) as Published;
    expect(asked.status).toBe('pending_approval');
    expect((await h.call('POST', `${API}/content/scheduled/approve?job_id=${asked.job_id}`, { headers: { 'X-SocialPub-Source': 'mcp' } })).status).toBe(200);
  });
});

describe('migration 030', () => {
  it('keeps existing users off (today\'s behaviour) and starts every later user with agent-approval on', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const m of [...MIGRATIONS].filter((x) => x.version < 30).sort((a, b) => a.version - b.version)) {
      db.exec(m.sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, 0)').run(m.version, m.name);
    }
    db.prepare("INSERT INTO users (id, email, approval_workflow, created_at) VALUES ('11111111-1111-4111-8111-111111111111', 'old@example.com', 0, 0)").run();
    db.prepare(
      `INSERT INTO jobs (id, user_id, caption, platforms, platform_captions, platform_types, media_urls, publish_now, scheduled_for, type_schedule, require_approval, sort_at, created_at, updated_at)
       VALUES ('job_old', '11111111-1111-4111-8111-111111111111', 'c', '["twitter"]', '{}', '{}', '[]', 0, 0, '{}', 0, 0, 0, 0)`,
    ).run();
    migrate(db);
    const users = createUsersRepository(db);
    expect(users.findByEmail('old@example.com')?.agentApproval).toBe(false);
    expect(users.ensure('new@example.com', 1).user.agentApproval).toBe(true);
    expect(db.prepare("SELECT source FROM jobs WHERE id = 'job_old'").pluck().get()).toBe('api');
    expect(() => db.prepare("UPDATE jobs SET source = 'robot'").run()).toThrow(/CHECK constraint/);
  });
});

describe('GET /sandbox/posts', () => {
  it('lists what the simulators received from the caller\'s own sandbox connections only, and checks its query', async () => {
    const h = harness();
    h.connect(['twitter']);
    // The harness's connection tokens have no account key; give twitter's one, as the local admin issues them.
    const conn = h.store.connections.get(h.user.id, 'twitter')!;
    h.store.credentials.saveTokens(conn.id, { secrets: { access_token: 'sandbox_at_k1.secret' } });
    const insert = h.db.prepare('INSERT INTO sandbox_posts (platform, account_id, post_id, post_url, kind, body, created_at, account_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    insert.run('twitter', 'acct_twitter', '1', 'https://x.com/s/status/1', 'tweet', JSON.stringify({ text: 'one' }), 1000, 'k1');
    insert.run('threads', 'acct_threads', '2', null, 'post', JSON.stringify({ text: 'not mine' }), 2000, 'k1');
    insert.run('twitter', 'acct_twitter', '3', 'https://x.com/s/status/3', 'tweet', JSON.stringify({ text: 'three' }), 3000, 'k1');
    insert.run('twitter', 'acct_other', '4', 'https://x.com/o/status/4', 'tweet', JSON.stringify({ text: 'another connection' }), 3500, 'k2');
    insert.run('twitter', 'acct_old', '5', 'https://x.com/o/status/5', 'tweet', JSON.stringify({ text: 'before keys' }), 3600, null);
    const all = (await (await h.call('GET', `${API}/sandbox/posts`)).json()) as { posts: { post_id: string; body: { text: string }; created_at: string }[] };
    expect(all.posts.map((p) => p.body.text)).toEqual(['one', 'three']);
    expect(all.posts[0]?.created_at).toBe('1970-01-01T00:00:01.000Z');
    const latest = (await (await h.call('GET', `${API}/sandbox/posts?platform=twitter&limit=1`)).json()) as { posts: { post_id: string }[] };
    expect(latest.posts.map((p) => p.post_id)).toEqual(['3']);
    expect(((await (await h.call('GET', `${API}/sandbox/posts?platform=threads`)).json()) as { posts: unknown[] }).posts).toEqual([]);
    expect((await h.call('GET', `${API}/sandbox/posts?platform=myspace`)).status).toBe(400);
    expect((await h.call('GET', `${API}/sandbox/posts?limit=0`)).status).toBe(400);
  });
});
