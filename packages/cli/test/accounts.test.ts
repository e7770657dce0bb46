import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

/** Several accounts of one network (issue 39): connect --label, -p platform:label, connections rename/default/remove. */
const t = useTestDaemon({ connect: ['twitter'] });

type Shown = { targets: { platform: string; label: string | null; connection_id: string | null; status: string }[]; platforms: string[]; platform_captions: Record<string, string> };
type Listing = { connection_id: string; platform: string; label: string; is_default: boolean; account_id: string };

describe('several accounts of one platform from the CLI', () => {
  it('connects another account with --label and publishes one post to -p twitter,X:brand through both', async () => {
    const connected = await t.run('connect twitter --sandbox --label brand --json');
    expect(connected.code, connected.stderr).toBe(0);
    expect(connected.json<Listing>()).toMatchObject({ platform: 'twitter', label: 'brand', is_default: false });

    const human = await t.run('connections list');
    expect(human.stdout).toMatch(/twitter\s+sandbox\s+active\s+default \(default\)\s/);
    expect(human.stdout).toMatch(/twitter\s+sandbox\s+active\s+brand\s+Sandbox twitter account \(brand\)\s/);
    expect(human.stdout).toMatch(/twitter\s+sandbox\s+active\s+default \(default\)\s+Sandbox twitter account\s/);
    // `platforms` shows the default account and says there is another.
    const platforms = await t.run('platforms');
    expect(platforms.stdout).toContain('twitter: 2 accounts (default, brand); the table shows the default one, -p twitter:<label> names another (socialpub connections list)');

    const r = await t.run(['publish', 'hello both', '-p', 'twitter,X:brand', '--caption-for', 'X:brand=the brand says hi', '--now', '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const jobId = r.json<{ job_id: string }>().job_id;
    const shown = (await t.run(`schedule show ${jobId} --json`)).json<Shown>();
    expect(shown.platforms).toEqual(['twitter', 'twitter:brand']);
    expect(shown.platform_captions).toEqual({ 'twitter:brand': 'the brand says hi' });
    const accounts = (await t.run('connections list --json')).json<{ connections: Listing[] }>().connections;
    const ids = Object.fromEntries(accounts.map((c) => [c.label, c.connection_id]));
    expect(shown.targets.map((x) => [x.label, x.connection_id, x.status])).toEqual([
      ['default', ids.default, 'published'],
      ['brand', ids.brand, 'published'],
    ]);
    const posts = (await t.run('sandbox posts --platform twitter --json')).json<{ posts?: { account_id: string | null }[] } | { account_id: string | null }[]>();
    const list = Array.isArray(posts) ? posts : (posts.posts ?? []);
    expect(new Set(list.map((p) => p.account_id)).size).toBe(2);
  });

  it("names each account's target in publish --wait, schedule show and the job's events (two tweets of one post tell apart)", async () => {
    // The brand account the first test connected.
    const r = await t.run(['publish', 'named apart', '-p', 'twitter,twitter:brand', '--now', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^✔ twitter\.tweet: published https:\/\/x\.com\/sandbox_x_\d+\/status\/\d+$/m);
    expect(r.stderr).toMatch(/^✔ twitter:brand\.tweet: published https:\/\/x\.com\/sandbox_x_\d+\/status\/\d+$/m);
    const jobId = /job_[0-9a-z]+/.exec(r.stdout + r.stderr)![0];
    const shown = await t.run(`schedule show ${jobId}`);
    expect(shown.stdout).toMatch(/^twitter\s+tweet\s+.+published/m);
    expect(shown.stdout).toMatch(/^twitter:brand\s+tweet\s+.+published/m);
    const events = await t.run(`events --job ${jobId} --type target.published`);
    expect(events.code, events.stderr).toBe(0);
    const lines = events.stdout.trim().split('\n');
    expect(lines.map((l) => / (twitter(?::brand)?\.tweet) /.exec(l)?.[1]).sort()).toEqual(['twitter.tweet', 'twitter:brand.tweet']);
    const json = (await t.run(`events --job ${jobId} --type target.published --json`)).stdout.trim().split('\n').map((l) => JSON.parse(l) as { data: { label: string; connection_id: string } });
    expect(json.map((e) => e.data.label).sort()).toEqual(['brand', 'default']);
    expect(json.every((e) => e.data.connection_id.startsWith('con_'))).toBe(true);
  });

  it('`sandbox posts` names the account each post went out through (ACCOUNT column, label in --json), from the data dir and from the API', async () => {
    const r = await t.run(['publish', 'which account?', '-p', 'twitter,twitter:brand', '--now', '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const urls = Object.fromEntries(r.json<{ targets: { label: string; post_url: string }[] }>().targets.map((x) => [x.label, x.post_url]));
    const table = await t.run('sandbox posts --platform twitter');
    expect(table.stdout).toMatch(/^PLATFORM\s+KIND\s+POSTED\s+POST\s+TEXT\s+OPTIONS\s+ON\s+ACCOUNT\n/);
    const rows = table.stdout.split('\n').filter((l) => l.includes('which account?'));
    expect(rows.map((l) => /^twitter\s+tweet\s+\S+ \S+ \S+\s+(\S+).*\s(\S+)$/.exec(l)?.slice(1).reverse()).sort()).toEqual([
      ['brand', urls.brand],
      ['default', urls.default],
    ]);
    const local = (await t.run('sandbox posts --platform twitter --json')).json<{ posts: { label: string | null; post_url: string }[] }>().posts;
    const api = (await t.run(`sandbox posts --platform twitter --json --api-key ${t.key.api_key}`)).json<{ posts: { label: string | null; post_url: string }[] }>().posts;
    for (const listed of [local, api]) {
      expect(listed.filter((p) => p.post_url === urls.brand || p.post_url === urls.default).map((p) => [p.label, p.post_url]).sort()).toEqual([
        ['brand', urls.brand],
        ['default', urls.default],
      ]);
    }
  });

  it('refuses a malformed label (exit 2) and names an unconnected one when publishing', async () => {
    const bad = await t.run('connect twitter --sandbox --label "Big Brand"');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('a label is 1-32 lower-case letters');
    const r = await t.run(['publish', 'hi', '-p', 'twitter:nobody', '--now', '--json']);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain('you have no twitter account labelled nobody (connect one with: socialpub connect twitter --label nobody)');
  });

  it('renames an account, makes it the default, and removes one by platform:label', async () => {
    expect((await t.run('connections rename twitter:default personal')).code).toBe(0);
    const made = await t.run('connections default X:brand --json');
    expect(made.code, made.stderr).toBe(0);
    expect(made.json<Listing>()).toMatchObject({ label: 'brand', is_default: true });
    const taken = await t.run('connections rename twitter:personal brand --json');
    expect(taken.code).toBe(5);
    expect(taken.json<{ error: { message: string } }>().error.message).toBe('you already have a twitter account labelled brand');
    expect((await t.run('connections remove twitter:brand')).code).toBe(0);
    const left = (await t.run('connections list --json')).json<{ connections: Listing[] }>().connections;
    expect(left.map((c) => [c.label, c.is_default])).toEqual([['personal', true]]);
  });
});
