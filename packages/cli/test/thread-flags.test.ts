import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';

describe('socialpub publish --thread, --thread-media and --first-comment against a daemon', () => {
  let t: Awaited<ReturnType<typeof startTestDaemon>>;
  beforeAll(async () => {
    t = await startTestDaemon();
    t.connect('twitter', 'threads', 'instagram');
  });
  afterAll(async () => {
    await t.stop();
  });
  const at = () => new Date(Date.now() + 2 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

  it('sends the parts in order, each --thread-media with the --thread of its rank, and the first comment', async () => {
    const r = await t.run([
      'publish', 'How we ship', '-p', 'twitter,threads', '--at', at(),
      '--thread', '1. Small changes', '--thread', '2. Tested', '--thread', '3. Shipped',
      '--thread-media', '-', '--thread-media', 'https://cdn.example.com/a.jpg,https://cdn.example.com/b.jpg',
      '--first-comment', 'Questions welcome', '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const id = r.json<{ job_id: string }>().job_id;
    const shown = (await t.run(`schedule show ${id} --json`)).json<{ thread: unknown; first_comment: unknown }>();
    expect(shown.thread).toEqual([
      { caption: '1. Small changes' },
      { caption: '2. Tested', media_urls: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'] },
      { caption: '3. Shipped' },
    ]);
    expect(shown.first_comment).toBe('Questions welcome');
    // People see what came of them per target (nothing yet: the post is scheduled).
    const human = await t.run(`schedule show ${id}`);
    expect(human.stdout).toMatch(/REPLIES/);
    expect(human.stdout).toMatch(/twitter .*thread 0 parts out, comment pending/);
  });

  it('sends per-platform first comments with --first-comment-for', async () => {
    const r = await t.run(['publish', 'Launch', '-p', 'twitter,instagram', '--media', 'https://cdn.example.com/a.jpg', '--at', at(), '--first-comment-for', 'instagram=Link in bio', '--first-comment-for', 'twitter=More soon', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const shown = (await t.run(`schedule show ${r.json<{ job_id: string }>().job_id} --json`)).json<{ first_comment: unknown }>();
    expect(shown.first_comment).toEqual({ instagram: 'Link in bio', twitter: 'More soon' });
  });

  it('refuses more --thread-media than --thread, and a comment for a platform without comments (exit 2)', async () => {
    const extra = await t.run(['publish', 'x', '-p', 'twitter', '--at', at(), '--thread', 'a', '--thread-media', '-', '--thread-media', 'https://cdn.example.com/a.jpg']);
    expect(extra.code).toBe(2);
    expect(extra.stderr).toContain('--thread-media: 2 given for 1 --thread part(s)');
    const tiktok = await t.run(['publish', 'x', '-p', 'twitter', '--at', at(), '--first-comment-for', 'tiktok=hi']);
    expect(tiktok.code).toBe(2);
    expect(tiktok.stderr).toContain('--first-comment-for: tiktok is not among the platforms');
  });

  it("passes on the daemon's refusal of a part, naming it (exit 2)", async () => {
    const r = await t.run(['publish', 'x', '-p', 'twitter', '--at', at(), '--thread', 'y'.repeat(281), '--json']);
    expect(r.code).toBe(2);
    const err = r.json<{ error: { details: { path: string; message: string }[] } }>().error;
    expect(err.details.map((d) => d.path)).toEqual(['thread.0.caption']);
  });
});
