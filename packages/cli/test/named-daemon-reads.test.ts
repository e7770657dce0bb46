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
