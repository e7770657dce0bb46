import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

/** Bluesky from the terminal: connect (sandbox, and the live flags), publish --now --wait, threads and options, sandbox posts. */

const t = useTestDaemon({ connect: ['bluesky'] });

interface SandboxPost {
  platform: string;
  post_url: string;
  body: { text: string; langs?: string[]; in_reply_to?: string; facets?: Array<{ index: { byteStart: number; byteEnd: number } }> };
}

describe('socialpub and bluesky', () => {
  it('publishes through the sandbox and prints the post on bsky.app', async () => {
    const r = await t.run('publish "Café ☕ launch #socialpub" -p bluesky --now --wait');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toMatch(/^https:\/\/bsky\.app\/profile\/sandbox-\d+\.bsky\.social\/post\/[2-7a-z]{13}$/);
    expect(r.stderr).toMatch(/✔ bluesky\.post: published https:\/\/bsky\.app\//);
    const posts = (await t.run('sandbox posts --platform bluesky --json')).json<{ posts: SandboxPost[] }>().posts;
    const post = posts.find((p) => p.body.text === 'Café ☕ launch #socialpub')!;
    expect(post.post_url).toBe(r.stdout.trim());
    // "#socialpub" starts after "Café ☕ launch " (17 bytes: é and ☕ are multi-byte).
    expect(post.body.facets![0]!.index).toEqual({ byteStart: 17, byteEnd: 27 });
  });

  it('takes a thread and typed options (--option bluesky.langs=fr,en)', async () => {
    const r = await t.run('publish "Un fil 🧵" -p bluesky --now --wait --json --thread "Deuxième partie" --option bluesky.langs=fr,en');
    expect(r.code, r.stderr).toBe(0);
    const post = r.json<{ status: string; targets: Array<{ thread_posts?: Array<{ part: number; post_id: string }> }> }>();
    expect(post.status).toBe('published');
    expect(post.targets[0]!.thread_posts!.map((p) => p.part)).toEqual([1, 2]);
    const posts = (await t.run('sandbox posts --platform bluesky --json')).json<{ posts: SandboxPost[] }>().posts;
    const reply = posts.find((p) => p.body.text === 'Deuxième partie')!;
    expect(reply.body.in_reply_to).toBe(post.targets[0]!.thread_posts![0]!.post_id);
    expect(posts.find((p) => p.body.text === 'Un fil 🧵')!.body.langs).toEqual(['fr', 'en']);
  });

  it('refuses a post over 300 graphemes before anything is sent, naming the rule', async () => {
    const r = await t.run(`publish "${'é'.repeat(301)}" -p bluesky --now --json`);
    expect(r.code).toBe(2);
    expect(r.json<{ error: { message: string } }>().error.message).toContain('bluesky captions are at most 300 graphemes (this one counts 301)');
  });

  it('connects a sandbox account, and asks for the handle and app password only when a person can answer', async () => {
    const sandbox = await t.run('connect bluesky --sandbox --json');
    expect(sandbox.code, sandbox.stderr).toBe(0);
    expect(sandbox.json<{ platform: string; mode: string }>()).toMatchObject({ platform: 'bluesky', mode: 'sandbox' });
    const live = await t.run('connect bluesky --json');
    expect(live.code).toBe(2);
    expect(live.json<{ error: { message: string } }>().error.message).toBe('missing --handle (the Bluesky handle, e.g. alice.bsky.social)');
    const noPassword = await t.run('connect bluesky --handle alice.bsky.social --json');
    expect(noPassword.json<{ error: { message: string } }>().error.message).toBe('missing --app-password (a Bluesky app password)');
  });

  // Last: a second user makes `connect` without --user ambiguous.
  it('connect --sandbox prints the connection’s own sandbox password, which `connections list --json` shows its owner', async () => {
    const r = await t.run('connect bluesky --sandbox --user pw@example.com');
    expect(r.code, r.stderr).toBe(0);
    const printed = /sandbox password: (sbx-[0-9a-z-]{31})\n/.exec(r.stdout)?.[1];
    expect(printed, r.stdout).toMatch(/^sbx-[0-9a-z]{7}-[0-9a-z]{7}-[0-9a-z]{7}-[0-9a-z]{7}$/);
    expect(r.stdout).toMatch(/createSession, identifier sandbox_bluesky_[0-9a-z]{10}\)/);
    const listed = (await t.run('connections list --user pw@example.com --json')).json<{ connections: Array<{ platform: string; sandbox_password: string | null }> }>().connections;
    expect(listed).toEqual([expect.objectContaining({ platform: 'bluesky', sandbox_password: printed })]);
  });
});
