import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openDatabase } from '@socialpub/daemon';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon();

describe('socialpub keys', () => {
  it('creates a key that the daemon accepts, printing it once as JSON', async () => {
    const r = await t.run('keys create --user ana@example.com --name laptop --json');
    expect(r.code).toBe(0);
    const key = r.json<{ api_key: string; key_id: string; user_id: string; email: string }>();
    expect(Object.keys(key).sort()).toEqual(['api_key', 'email', 'key_id', 'scope', 'user_id']);
    expect(key.email).toBe('ana@example.com');
    expect(key.api_key).toMatch(/^sp_key_[0-9a-z]{20}_[0-9a-z]{40}$/);
    const who = await t.run('whoami --json', { env: { SOCIALPUB_API_KEY: key.api_key } });
    expect(who.code).toBe(0);
    expect(who.json<{ user: { email: string } }>().user.email).toBe('ana@example.com');
  });

  it('prints the new key in human form with a warning that it is shown once', async () => {
    const r = await t.run('keys create --user ana@example.com');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/key key_[0-9a-z]{20} created for ana@example.com/);
    expect(r.stdout).toMatch(/ {2}sp_key_[0-9a-z]{20}_[0-9a-z]{40}/);
    expect(r.stdout).toContain('only time the full key is shown');
  });

  it('lists keys without secrets, as a table and as JSON', async () => {
    const human = await t.run('keys list --user ana@example.com');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^KEY\s+USER\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATUS/);
    expect(human.stdout).toContain('laptop');
    expect(human.stdout).not.toMatch(/sp_key_[0-9a-z]{20}_[0-9a-z]{40}/);
    const json = (await t.run('keys list --json')).json<{ keys: { email: string; status: string }[] }>();
    expect(json.keys.map((k) => k.email)).toEqual(['tester@example.com', 'ana@example.com', 'ana@example.com']);
    expect(JSON.stringify(json)).not.toMatch(/sp_key_[0-9a-z]{20}_[0-9a-z]{40}/);
  });

  it('revokes a key so the daemon refuses it (exit 3), and says so again with exit 5', async () => {
    const key = (await t.run('keys create --user bo@example.com --json')).json<{ api_key: string; key_id: string }>();
    const r = await t.run(`keys revoke ${key.key_id} --json`);
    expect(r.code).toBe(0);
    expect(r.json<{ status: string }>().status).toBe('revoked');
    const refused = await t.run('auth validate --json', { env: { SOCIALPUB_API_KEY: key.api_key } });
    expect(refused.code).toBe(3);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('unauthorized');
    const again = await t.run(`keys revoke ${key.key_id}`);
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('already revoked');
  });

  it('rotates a key: the new one works, the old one is refused, --save stores the new one', async () => {
    const old = (await t.run('keys create --user cy@example.com --json')).json<{ api_key: string; key_id: string }>();
    const r = await t.run(`keys rotate ${old.key_id} --save --json`);
    expect(r.code).toBe(0);
    const fresh = r.json<{ api_key: string; key_id: string; replaced: string; saved: boolean }>();
    expect(fresh.replaced).toBe(old.key_id);
    // The saved key is used when neither flag nor environment gives one.
    const who = await t.run('whoami --json', { env: { SOCIALPUB_API_KEY: undefined } });
    expect(who.json<{ user: { email: string } }>().user.email).toBe('cy@example.com');
    expect(fresh.saved).toBe(true);
    const twice = await t.run(`keys rotate ${fresh.key_id}`);
    expect(twice.code).toBe(0);
    expect(twice.stdout).toContain(`key ${fresh.key_id} replaced by key_`);
    expect(twice.stdout).toContain('shown once');
    const dead = await t.run(`keys rotate ${fresh.key_id}`);
    expect(dead.code).toBe(5);
    expect((await t.run('auth validate', { env: { SOCIALPUB_API_KEY: old.api_key } })).code).toBe(3);
    expect((await t.run('config get api-key --json')).json()).toEqual({ 'api-key': fresh.api_key });
  });

  it('answers an unknown key id with exit 4', async () => {
    const r = await t.run('keys revoke key_doesnotexist0000000 --json');
    expect(r.code).toBe(4);
    expect(r.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'not_found', message: 'no key key_doesnotexist0000000' });
  });
});

describe('socialpub connect --sandbox and connections', () => {
  it('records a sandbox connection that the daemon reports as connected', async () => {
    const r = await t.run('connect twitter --sandbox --user tester@example.com');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('twitter connected (sandbox) for tester@example.com');
    const platforms = (await t.run('platforms --json')).json<{ platform: string; connection: { mode: string; status: string } | null }[]>();
    expect(platforms.find((p) => p.platform === 'twitter')?.connection).toMatchObject({ mode: 'sandbox', status: 'active' });
    expect(platforms.find((p) => p.platform === 'tiktok')?.connection).toBeNull();
  });

  it('gives facebook a sandbox page', async () => {
    const r = await t.run('connect facebook --sandbox --user tester@example.com --json');
    expect(r.code).toBe(0);
    expect(r.json<{ platform: string; page_id: string | null }>()).toMatchObject({ platform: 'facebook', page_id: expect.stringMatching(/^sandbox_page_/) });
  });

  it('lists connections as a table and as JSON', async () => {
    const human = await t.run('connections list --user tester@example.com');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/PLATFORM\s+MODE\s+STATUS/);
    expect(human.stdout).toMatch(/twitter\s+sandbox\s+active/);
    const json = (await t.run('connections list --user tester@example.com --json')).json<{ connections: { platform: string }[] }>();
    expect(json.connections.map((c) => c.platform).sort()).toEqual(['facebook', 'twitter']);
  });

  it('shows a connection paused by its platform until the reset, in the table and as JSON', async () => {
    const db = openDatabase(join(t.dataDir, 'socialpub.db'));
    const user = db.prepare("SELECT id FROM users WHERE email = 'tester@example.com'").pluck().get() as string;
    const until = Date.UTC(2099, 0, 2, 3, 4, 0);
    db.prepare(
      "INSERT INTO platform_pauses (scope, platform, user_id, until, reason, platform_code, created_at) VALUES (?, 'twitter', ?, ?, 'X rate limit reached', 'rate-limit-exceeded', 0)",
    ).run(`connection:${user}:twitter`, user, until);
    db.close();
    const human = await t.run('connections list --user tester@example.com');
    expect(human.stdout).toMatch(/twitter\s+sandbox\s+active, paused until 2099-01-02 03:04 UTC\s/);
    expect(human.stdout).toMatch(/facebook\s+sandbox\s+active\s/);
    const json = (await t.run('connections list --user tester@example.com --json')).json<{ connections: { platform: string; paused: unknown }[] }>();
    expect(json.connections.find((c) => c.platform === 'twitter')?.paused).toEqual({
      until: '2099-01-02T03:04:00.000Z',
      applies_to: 'connection',
      reason: 'X rate limit reached',
      platform_code: 'rate-limit-exceeded',
    });
    expect(json.connections.find((c) => c.platform === 'facebook')?.paused).toBeNull();
  });

  it('removes a connection, then says there is none (exit 4)', async () => {
    expect((await t.run('connections remove facebook --user tester@example.com')).code).toBe(0);
    const again = await t.run('connections remove facebook --user tester@example.com --json');
    expect(again.code).toBe(4);
    expect(again.json<{ error: { message: string } }>().error.message).toContain('has no facebook connection');
  });

  it('refuses an unknown platform with exit 2', async () => {
    const r = await t.run('connect myspace --sandbox');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown platform "myspace"');
  });

  it('asks for live app credentials only when a person can answer', async () => {
    const r = await t.run('connect instagram --user tester@example.com --json');
    expect(r.code).toBe(2);
    expect(r.json<{ error: { message: string } }>().error.message).toBe('missing --client-id (the Meta app id)');
    const pair = await t.run('connect twitter --access-token abc');
    expect(pair.code).toBe(2);
    expect(pair.stderr).toContain('--access-token and --access-secret come together');
  });
});

describe('socialpub settings', () => {
  it('turns the approval workflow on, so new jobs wait for approval, and off again', async () => {
    t.connect('threads');
    const on = await t.run('settings set approval-workflow on --user tester@example.com --json');
    expect(on.code).toBe(0);
    expect(on.json()).toMatchObject({ email: 'tester@example.com', approval_workflow: true });
    const job = (await t.run('publish "held" -p threads --at +2h --json')).json<{ status: string }>();
    expect(job.status).toBe('pending_approval');
    const off = await t.run('settings set approval-workflow off --user tester@example.com');
    expect(off.stdout).toContain('approval workflow off for tester@example.com');
    expect((await t.run('publish "free" -p threads --at +2h --json')).json<{ status: string }>().status).toBe('scheduled');
  });

  it('refuses unknown settings and values with exit 2', async () => {
    expect((await t.run('settings set dark-mode on')).code).toBe(2);
    const r = await t.run('settings set approval-workflow maybe');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('approval-workflow is on or off');
  });
});
