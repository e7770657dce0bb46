import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDaemon } from './daemon-harness';

// A 1x1 PNG: the daemon judges the kind from these bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0c9d4e10000000049454e44ae426082', 'hex');

let t: Awaited<ReturnType<typeof startTestDaemon>>;
let server: Server;
let origin: string;
beforeAll(async () => {
  // The URL sources below are on loopback; the daemon refuses private addresses unless told.
  // Local files never need this: they are uploaded, not fetched.
  t = await startTestDaemon({ mediaAllowPrivate: true, mediaMaxBytes: 64 * 1024 });
  t.connect('twitter');
  server = createServer((req, res) => {
    if (req.url === '/photo.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    else res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><html><body>Sign in to see this file</body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await t.stop();
});

describe('socialpub prepare', () => {
  it('starts a task and prints its id to follow', async () => {
    const r = await t.run(`prepare ${origin}/photo.png --json`);
    expect(r.code).toBe(0);
    const { task_id } = r.json<{ task_id: string }>();
    expect(task_id).toMatch(/^task_/);
    const human = await t.run(`prepare ${origin}/photo.png`);
    expect(human.stdout).toMatch(/task:\s+task_/);
    expect(human.stdout).toContain('follow it with: socialpub status task_');
  });

  it('waits with a progress line and lists the prepared file', async () => {
    const r = await t.run(`prepare ${origin}/photo.png --wait`);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('✔ Preparing media: 1 completed, 0 failed of 1');
    expect(r.stdout).toMatch(/status:\s+completed/);
    expect(r.stdout).toMatch(/image\s+\d+ B\s+http:\/\/127\.0\.0\.1:\d+\/\S+\s+http:\/\/127\.0\.0\.1:\d+\/photo\.png/);
  });

  it('exits 8 when a file is refused, saying which and why', async () => {
    const r = await t.run(`prepare ${origin}/photo.png ${origin}/share-link --wait --json`);
    expect(r.code).toBe(8);
    // One JSON document: the error, carrying the task as its data.
    const body = r.json<{ success: false; error: { code: string; exit_code: number }; data: { status: string; progress: unknown; failed: { original_url: string; error: { code: string } }[] } }>();
    expect(body.error).toMatchObject({ code: 'incomplete', exit_code: 8, message: '1 of 2 files were refused' });
    expect(body.data).toMatchObject({ status: 'completed', progress: { total: 2, completed: 1, failed: 1 } });
    expect(body.data.failed[0]).toMatchObject({ original_url: `${origin}/share-link`, error: { code: 'html_page' } });
  });

  it('exits 1, not 8 ("partly"), when every file is refused', async () => {
    const human = await t.run(`prepare ${origin}/share-link --wait`);
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/REFUSED\s+WHY/);
    expect(human.stderr).toContain('error: no file could be prepared');
    const json = (await t.run(`prepare ${origin}/share-link ${origin}/other-page --wait --json`)).json<{ error: { code: string; exit_code: number }; data: { status: string } }>();
    expect(json.error).toMatchObject({ code: 'media_failed', exit_code: 1 });
    expect(json.data.status).toBe('failed');
  });

  it('shows a task by id with status, and refuses an unknown one (exit 4)', async () => {
    const { task_id } = (await t.run(`prepare ${origin}/photo.png --wait --json`)).json<{ task_id: string }>();
    const r = await t.run(`status ${task_id} --json`);
    expect(r.code).toBe(0);
    expect(r.json()).toMatchObject({ task_id, status: 'completed' });
    expect((await t.run('status task_nosuchtask')).code).toBe(4);
  });
});

describe('socialpub prepare with local files', () => {
  it('uploads a file and prints its task, completed with the prepared URL', async () => {
    const file = join(t.root, 'cover photo.png');
    writeFileSync(file, PNG);
    const r = await t.run(['prepare', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const task = r.json<{ task_id: string; status: string; files: { original_url: string; prepared_url: string; type: string }[] }>();
    expect(task).toMatchObject({ status: 'completed', files: [{ original_url: 'upload:cover-photo.png', type: 'image' }] });
    expect(Buffer.from(await (await fetch(task.files[0]?.prepared_url ?? '')).arrayBuffer()).equals(PNG)).toBe(true);
    // The same task through `status`.
    expect((await t.run(`status ${task.task_id} --json`)).json()).toMatchObject({ task_id: task.task_id, status: 'completed' });
    const human = await t.run(['prepare', file]);
    expect(human.stderr).toContain('✔ Uploaded cover photo.png');
    expect(human.stdout).toMatch(/image\s+\d+ B\s+http:\/\/127\.0\.0\.1:\d+\/files\/\S+\s+upload:cover-photo\.png/);
  });

  it('prints one document of tasks for files and links together', async () => {
    const file = join(t.root, 'a.png');
    writeFileSync(file, PNG);
    const r = await t.run(['prepare', file, `${origin}/photo.png`, '--wait', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const { tasks } = r.json<{ tasks: { status: string; files: { original_url: string }[] }[] }>();
    expect(tasks.map((x) => [x.status, x.files[0]?.original_url])).toEqual([
      ['completed', 'upload:a.png'],
      ['completed', `${origin}/photo.png`],
    ]);
  });

  it('refuses an HTML file (exit 2, the media code in details) and a file over the cap (exit 2), naming the file', async () => {
    const page = join(t.root, 'page.jpg');
    writeFileSync(page, '<!doctype html><html><body>not a photo</body></html>');
    const html = await t.run(['prepare', page, '--json']);
    expect(html.code).toBe(2);
    const body = html.json<{ error: { code: string; message: string; details: { code: string }[] } }>();
    expect(body.error).toMatchObject({ code: 'unsupported_media_type', details: [{ code: 'html_page' }] });
    expect(body.error.message).toMatch(/^page\.jpg: /);
    const big = join(t.root, 'big.png');
    writeFileSync(big, Buffer.concat([PNG, Buffer.alloc(70 * 1024)]));
    const tooBig = await t.run(['prepare', big]);
    expect(tooBig.code).toBe(2);
    expect(tooBig.stderr).toContain('error: big.png: ');
  });

  it('refuses an argument that is neither a URL nor a file (exit 2)', async () => {
    const r = await t.run(['prepare', join(t.root, 'nothing-here.png')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('is neither a URL');
  });
});

describe('socialpub publish with a local file', () => {
  it('uploads the file to the daemon and publishes its prepared URL', async () => {
    const file = join(t.root, 'local photo.png');
    writeFileSync(file, PNG);
    const r = await t.run(['publish', 'with a local file', '-p', 'twitter', '--media', file, '--at', '+3h', '--json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const { job_id } = r.json<{ job_id: string }>();
    const post = (await t.run(`schedule show ${job_id} --json`)).json<{ media_urls: string[] }>();
    expect(post.media_urls).toHaveLength(1);
    expect(post.media_urls[0]).toMatch(new RegExp(`^${t.daemon.url}/files/[0-9a-z]{32}/local-photo\\.png$`));
    const served = await fetch(post.media_urls[0] as string);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('works with a daemon that refuses private addresses (nothing is fetched from the CLI)', async () => {
    const strict = await startTestDaemon({ mediaAllowPrivate: false });
    try {
      strict.connect('twitter');
      const file = join(strict.root, 'photo.png');
      writeFileSync(file, PNG);
      const r = await strict.run(['publish', 'strict daemon', '-p', 'twitter', '--media', file, '--at', '+3h', '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    } finally {
      await strict.stop();
    }
  });

  it('stops before publishing when the file is refused', async () => {
    const page = join(t.root, 'login.png');
    writeFileSync(page, '<html><body>sign in</body></html>');
    const r = await t.run(['publish', 'never', '-p', 'twitter', '--media', page, '--at', '+3h', '--json']);
    expect(r.code).toBe(2);
    expect(r.json<{ error: { code: string } }>().error.code).toBe('unsupported_media_type');
    const list = (await t.run('schedule list --json')).json<{ posts: { caption: string }[] }>();
    expect(list.posts.some((p) => p.caption === 'never')).toBe(false);
  });
});
