import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';
import { JPEG } from './media-samples';

const t = useTestDaemon({ connect: ['pinterest'] });

interface SandboxPosts {
  posts: { platform: string; kind: string; post_url: string; body: { text?: string; title?: string; board?: string; board_id?: string; media?: Array<{ kind: string }> } }[];
}
interface Platforms {
  platform: string;
  connection: { page: string; boards?: Array<{ id: string; name: string }> } | null;
}

describe('socialpub with pinterest through the sandbox', () => {
  it('publishes an image pin with --media <image> --now --wait, to the board chosen for the connection', async () => {
    const file = join(t.root, 'linen.jpg');
    writeFileSync(file, JPEG);
    const r = await t.run(['publish', 'Linen shirts, washed twice', '-p', 'pinterest', '--media', file, '--option', 'pinterest.title=Linen shirts', '--now', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^https:\/\/www\.pinterest\.com\/pin\/\d+\/$/);
    expect(r.stderr).toMatch(/✔ pinterest\.pin: published https:\/\/www\.pinterest\.com\/pin\//);
    const posts = (await t.run('sandbox posts --platform pinterest --json')).json<SandboxPosts>();
    expect(posts.posts.at(-1)).toMatchObject({ platform: 'pinterest', kind: 'pin', post_url: r.stdout.trim(), body: { text: 'Linen shirts, washed twice', title: 'Linen shirts', board: 'Inspiration', media: [{ kind: 'image' }] } });
  });

  it('puts a pin on another board with --option pinterest.board_id, and refuses a board that is not the account\'s (exit 2) naming the field', async () => {
    const file = join(t.root, 'b.jpg');
    writeFileSync(file, JPEG);
    const platforms = (await t.run('platforms --json')).json<Platforms[]>();
    const boards = platforms.find((p) => p.platform === 'pinterest')!.connection!.boards!;
    expect(boards.map((b) => b.name)).toEqual(['Inspiration', 'Products']);
    const r = await t.run(['publish', 'On the products board', '-p', 'pinterest', '--media', file, '--option', `pinterest.board_id=${boards[1]!.id}`, '--now', '--wait']);
    expect(r.code, r.stderr).toBe(0);
    const posts = (await t.run('sandbox posts --platform pinterest --json')).json<SandboxPosts>();
    expect(posts.posts.at(-1)!.body).toMatchObject({ board: 'Products', board_id: boards[1]!.id });

    const stranger = await t.run(['publish', 'on a stranger\'s board', '-p', 'pinterest', '--media', file, '--option', 'pinterest.board_id=123456', '--now', '--json']);
    expect(stranger.code).toBe(2);
    expect(JSON.stringify(stranger.json())).toContain('platform_options.pinterest.board_id');
    const long = await t.run(['publish', 'x'.repeat(501), '-p', 'pinterest', '--media', file, '--now', '--json']);
    expect(long.code).toBe(2);
    expect(JSON.stringify(long.json())).toContain('"path":"caption"');
    expect((await t.run('schedule list --json')).stdout).not.toContain('stranger');
  });

  it('connect pinterest --sandbox lists the boards; the sandbox endpoints list the Pinterest hosts', async () => {
    const connected = await t.run('connect pinterest --sandbox');
    expect(connected.code, connected.stderr).toBe(0);
    const out = connected.stdout + connected.stderr;
    expect(out).toMatch(/pinterest connected \(sandbox\).*, board Inspiration/);
    expect(out).toMatch(/boards: Inspiration \(\d+\) \*, Products \(\d+\)/);
    const endpoints = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string> }>();
    expect(endpoints.endpoints['api.pinterest.com']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoints.endpoints['www.pinterest.com']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
