import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { tempHome } from './helpers';
import { JPEG } from './media-samples';

// Issue 35, item 12: the messages a newcomer met.
const t = useTestDaemon({ connect: ['twitter', 'mastodon'] });

const mediaRows = () => {
  const db = new DatabaseSync(join(t.dataDir, 'socialpub.db'), { readOnly: true });
  try {
    return Number((db.prepare('SELECT count(*) AS n FROM media_tasks').get() as { n: number | bigint }).n);
  } finally {
    db.close();
  }
};

describe('messages', () => {
  it('names the platform that is not connected, once, and gives its own connect command (no <platform>)', async () => {
    const r = await t.run('publish hello -p tiktok,twitter --media https://example.com/v.mp4 --now');
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('error: no active connection for tiktok\nhint: connect it first: `socialpub connect tiktok --sandbox` (or live, without --sandbox)\n');
    const json = (await t.run('publish hello -p tiktok,linkedin --media https://example.com/v.mp4 --now --json')).json<{ error: { hint: string; details: { platform: string }[] } }>().error;
    expect(json.hint).toBe('connect them first: `socialpub connect tiktok --sandbox`, `socialpub connect linkedin --sandbox` (or live, without --sandbox)');
    expect(json.details.map((d) => d.platform)).toEqual(['tiktok', 'linkedin']);
  });

  it('uploads no local file for a publication refused for its platform', async () => {
    const photo = join(t.root, 'photo.jpg');
    writeFileSync(photo, JPEG);
    const before = mediaRows();
    const r = await t.run(['publish', 'with a photo', '-p', 'twitter,linkedin', '--media', photo, '--now']);
    expect(r.code).toBe(3);
    expect(r.stderr).toBe('error: no active connection for linkedin\nhint: connect it first: `socialpub connect linkedin --sandbox` (or live, without --sandbox)\n');
    expect(mediaRows()).toBe(before);
    // Connected platforms: the file is uploaded and published as before.
    const ok = await t.run(['publish', 'with a photo', '-p', 'twitter', '--media', photo, '--at', '+2h', '--json']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(mediaRows()).toBe(before + 1);
  });

  it('puts --port in the unreachable hint when the CLI points at another port than 8787', async () => {
    const home = tempHome();
    try {
      const other = await home.run('schedule list', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:9', SOCIALPUB_API_KEY: t.key.api_key } });
      expect(other.code).toBe(7);
      expect(other.stderr).toContain('hint: start it with `socialpub up --port 9`, or check --base-url');
      const flag = await home.run(['--base-url', 'http://127.0.0.1:9', 'schedule', 'list', '--json'], { env: { SOCIALPUB_API_KEY: t.key.api_key } });
      expect(flag.json<{ error: { hint: string } }>().error.hint).toBe('start it with `socialpub up --port 9`, or check --base-url');
      const usual = await home.run('schedule list', { env: { SOCIALPUB_BASE_URL: 'http://127.0.0.1:8787', SOCIALPUB_API_KEY: t.key.api_key } });
      if (usual.code === 7) expect(usual.stderr).toContain('hint: start it with `socialpub up`, or check --base-url');
    } finally {
      home.cleanup();
    }
  });

  it('mcp --help shows no "(default: [])" and lists the options its examples use', async () => {
    const r = await t.run('mcp --help');
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('(default: [])');
    for (const used of ['--base-url <url>', '--api-key <key>', '--file-root <dir>']) expect(r.stdout).toContain(used);
    for (const line of ['events --help', 'webhooks add --help']) expect((await t.run(line)).stdout).not.toContain('(default: [])');
  });

  it('shows the post a Mastodon thread part answers in the ON column of sandbox posts', async () => {
    const r = await t.run(['publish', 'first part', '-p', 'mastodon', '--now', '--wait', '--thread', 'second part', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const posts = (await t.run('sandbox posts --platform mastodon --json')).json<{ posts: { post_id: string; body: { status: string } }[] }>().posts;
    const first = posts.find((p) => p.body.status === 'first part')!;
    const table = await t.run('sandbox posts --platform mastodon');
    const row = table.stdout.split('\n').find((l) => l.includes('second part'))!;
    // ON, then ACCOUNT (the last column): the sandbox account's label.
    expect(row.trimEnd()).toMatch(new RegExp(`\\s${first.post_id}\\s+default$`));
  });
});
