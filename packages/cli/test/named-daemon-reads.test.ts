import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { runIn } from './helpers';

// The CLI asks the daemon it is pointed at: a read names the daemon (config, --base-url,
// --api-key) whose data dir is elsewhere, and the CLI on another HOME shows that daemon's
// data through its API, creating no data dir of its own (docs/cli.md "Which daemon").
const t = useTestDaemon({ connect: ['twitter'] });

/** A HOME of its own with only a config dir beside it: no SOCIALPUB_HOME, so the default data dir is HOME/.local/share/socialpub. */
function elsewhere() {
  const root = mkdtempSync(join(tmpdir(), 'socialpub-elsewhere-'));
  const env = { HOME: root, SOCIALPUB_CONFIG_DIR: join(root, 'config'), NO_COLOR: '1' };
  return { root, env, run: (line: string) => runIn(line, { env }) };
}
const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe('reads through the daemon the CLI is pointed at', () => {
  it("`sandbox posts` shows the named daemon's posts, from the config and from the flags, and creates no data dir", async () => {
    const pub = await t.run('publish "posted on the daemon elsewhere" -p twitter --now --wait --json');
    expect(pub.code, pub.stderr).toBe(0);
    const url = pub.json<{ targets: { post_url: string }[] }>().targets[0]!.post_url;

    const cli = elsewhere();
    homes.push(cli.root);
    // The config names the daemon (as `socialpub config set` saves it).
    expect((await cli.run(`config set base-url ${t.daemon.url}`)).code).toBe(0);
    expect((await cli.run(`config set api-key ${t.key.api_key}`)).code).toBe(0);
    const fromConfig = await cli.run('sandbox posts --json');
    expect(fromConfig.code, fromConfig.stderr).toBe(0);
    const posts = fromConfig.json<{ posts: { platform: string; post_url: string; body: { text: string } }[] }>().posts;
    expect(posts.map((p) => [p.platform, p.post_url, p.body.text])).toEqual([['twitter', url, 'posted on the daemon elsewhere']]);
    const table = await cli.run('sandbox posts --platform twitter');
    expect(table.stdout).toMatch(/twitter\s+tweet\s+.+posted on the daemon elsewhere/);

    // The flags alone, on a HOME without a config.
    const bare = elsewhere();
    homes.push(bare.root);
    const fromFlags = await bare.run(`sandbox posts --json --base-url ${t.daemon.url} --api-key ${t.key.api_key}`);
    expect(fromFlags.code, fromFlags.stderr).toBe(0);
    expect(fromFlags.json<{ posts: { post_url: string }[] }>().posts.map((p) => p.post_url)).toEqual([url]);

    // No data dir anywhere in either HOME: the default one, nor any other directory but the config's.
    for (const h of [cli, bare]) {
      expect(existsSync(join(h.root, '.local', 'share', 'socialpub'))).toBe(false);
      expect(readdirSync(h.root).filter((n) => n !== 'config' && n !== '.cache')).toEqual([]);
    }
  });

  it("`keys list`, `connections list` and `settings get` show the named daemon's data through its API, in the data dir's columns, and create no data dir", async () => {
    // On the daemon's data dir: an agent key, a brand account and a zone to find elsewhere.
    const agent = (await t.run('keys create --scope agent --name helper --json')).json<{ key_id: string }>();
    expect((await t.run('connect twitter --sandbox --label brand')).code).toBe(0);
    expect((await t.run('settings set timezone Europe/Berlin')).code).toBe(0);
    // agent-approval is on for a new user: off here, so the answer is the daemon's and not a default.
    expect((await t.run('settings set agent-approval off')).code).toBe(0);

    const cli = elsewhere();
    homes.push(cli.root);
    expect((await cli.run(`config set base-url ${t.daemon.url}`)).code).toBe(0);
    expect((await cli.run(`config set api-key ${t.key.api_key}`)).code).toBe(0);

    const keys = await cli.run('keys list --json');
    expect(keys.code, keys.stderr).toBe(0);
    const listed = keys.json<{ keys: { key_id: string; email: string; scope: string; status: string; name: string | null }[] }>().keys;
    expect(listed.map((k) => [k.key_id, k.email, k.scope, k.status])).toEqual([
      [t.key.key_id, t.key.email, 'full', 'active'],
      [agent.key_id, t.key.email, 'agent', 'active'],
    ]);
    const keyTable = await cli.run('keys list');
    expect(keyTable.stdout).toMatch(/^KEY\s+USER\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATUS\s+SCOPE/);
    expect(keyTable.stdout.split('\n').find((l) => l.startsWith(agent.key_id))).toMatch(/helper\s.+\sactive\s+agent\s*$/);

    const connections = await cli.run('connections list --json');
    expect(connections.code, connections.stderr).toBe(0);
    const accounts = connections.json<{ connections: { platform: string; label: string; is_default: boolean; mode: string; email: string }[] }>().connections;
    expect(accounts.map((c) => [c.platform, c.label, c.is_default, c.mode, c.email])).toEqual([
      ['twitter', 'default', true, 'sandbox', t.key.email],
      ['twitter', 'brand', false, 'sandbox', t.key.email],
    ]);
    expect((await cli.run('connections list')).stdout).toMatch(/twitter\s+sandbox\s+active\s+brand\s/);

    const settings = await cli.run('settings get --json');
    expect(settings.code, settings.stderr).toBe(0);
    expect(settings.json()).toEqual({ email: t.key.email, user_id: t.key.user_id, approval_workflow: false, agent_approval: false, timezone: 'Europe/Berlin' });
    expect((await cli.run('settings get timezone')).stdout).toBe('Europe/Berlin\n');

    // Through the API only the key's user is there to name.
    const other = await cli.run('connections list --user someone@example.com --json');
    expect(other.code).toBe(2);
    expect(other.json<{ error: { message: string } }>().error.message).toBe(`--user someone@example.com: the daemon at ${t.daemon.url} answers for the key's user (${t.key.email}) only`);
    expect((await cli.run(`keys list --user ${t.key.email} --json`)).code).toBe(0);

    // A read key reads the accounts (without their sandbox passwords) and is refused the keys, as the daemon says.
    const read = (await t.run('keys create --scope read --json')).json<{ api_key: string }>();
    const withRead = await cli.run(`connections list --json --api-key ${read.api_key}`);
    expect(withRead.code, withRead.stderr).toBe(0);
    expect(withRead.json<{ connections: Record<string, unknown>[] }>().connections.every((c) => !('sandbox_password' in c))).toBe(true);
    const refused = await cli.run(`keys list --json --api-key ${read.api_key}`);
    expect(refused.code).toBe(3);
    expect(refused.json<{ error: { code: string } }>().error.code).toBe('insufficient_scope');

    expect(existsSync(join(cli.root, '.local', 'share', 'socialpub'))).toBe(false);
    expect(readdirSync(cli.root).filter((n) => n !== 'config' && n !== '.cache')).toEqual([]);
  });

  it('a read-only command on a data dir that does not exist says so and creates none', async () => {
    const cli = elsewhere();
    homes.push(cli.root);
    for (const line of ['keys list', 'connections list', 'settings get', 'sandbox posts', 'sandbox endpoints']) {
      const r = await cli.run(`${line} --json`);
      expect(r.code, `${line}: ${r.stdout}`).toBe(4);
      expect(r.json<{ error: { message: string } }>().error.message).toBe(`no socialpub data in ${join(cli.root, '.local', 'share', 'socialpub')}`);
    }
    expect(existsSync(join(cli.root, '.local'))).toBe(false);
  });
});
