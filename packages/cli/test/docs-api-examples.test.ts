import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { openAdmin } from '@socialpub/daemon';
import { useTestDaemon } from './daemon-harness';
import { JPEG, MP4 } from './media-samples';

/**
 * The curl commands of docs/api.md's shell blocks, run as written with curl against a real
 * daemon with sandbox connections, so an example cannot break silently. `$SP` and `$KEY`
 * are the doc's variables, set here; the doc's made-up ids (a job, a series, a media
 * task, a prepared file) are replaced by real ones of the same kind, made before. An
 * example the suite cannot run as a request is listed with the reason; a new example is
 * neither until someone decides, and fails.
 */
const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

/** Each command of every ```sh block: continuation lines joined, a quoted body kept whole. */
function shellExamples(markdown: string): string[] {
  const out: string[] = [];
  for (const [, block = ''] of markdown.matchAll(/```sh\n([\s\S]*?)```/g)) {
    let command = '';
    for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
      command = command ? `${command}\n${line}` : line.trim();
      // A line inside an open single-quoted JSON body continues the command.
      if (command && (command.match(/'/g) ?? []).length % 2 === 0) {
        out.push(command);
        command = '';
      }
    }
  }
  return out;
}

const NOT_RUN: Record<string, string> = {
  'export SP=http://127.0.0.1:8787/api/agents/v1': 'sets the variable; the test sets SP to its daemon on port 0',
  'export KEY=$(socialpub keys create --json | jq -r .api_key)': 'sets the variable; the test makes the key with the local admin (docs-examples.test.ts runs `socialpub keys create`)',
  'curl -H "X-API-Key: $KEY" …': 'the header alone, not a request (every example below sends it)',
  'curl -H "Authorization: Bearer $KEY" …': 'the header alone, not a request (run below as the Bearer form of GET /platforms)',
  'curl -X DELETE "$SP/inbox/replies/rpl_5t2…" -H "X-API-Key: $KEY"':
    'the reply the example before it queued is sent on the sender\'s next round, after this run; deleting a sent reply is run against the networks in packages/daemon/test/inbox/inbox-conversations.test.ts',
};

/** The made-up ids of the doc, in the order the examples use them. */
const JOB = 'job_8d1k2m3n4p5q6r7s8t9u';
/** The doc's made-up inbox item. */
const INBOX_ITEM = 'inb_3k9x7q2m1n';

/** A reader's reply to a published Mastodon status, through the simulator's own API with a token its OAuth grants (another account); returns the daemon's inbox item for it. */
async function inboxItem(api: (path: string, init?: RequestInit) => Promise<{ status: number; body: Record<string, unknown> }>, origin: string, statusId: string): Promise<string> {
  const redirect = 'urn:ietf:wg:oauth:2.0:oob';
  const post = (path: string, body: unknown, token?: string) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  const app = await post('/api/v1/apps', { client_name: 'a reader', redirect_uris: redirect, scopes: 'read write' });
  const auth = await fetch(`${origin}/oauth/authorize?${new URLSearchParams({ client_id: app.client_id!, redirect_uri: redirect, response_type: 'code', scope: 'read write' })}`, { redirect: 'manual' });
  const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
  const token = (await post('/oauth/token', { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: redirect })).access_token!;
  await post('/api/v1/statuses', { status: 'Where can I read more?', in_reply_to_id: statusId }, token);
  expect((await api('/inbox/refresh', { method: 'POST' })).body.new_items).toBe(1);
  const items = (await api('/inbox')).body.items as { id: string }[];
  return items[0]!.id;
}


const t = useTestDaemon({ connect: ['twitter', 'instagram', 'threads', 'tiktok', 'mastodon'] });
let cwd: string;
let env: Record<string, string | undefined>;
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${t.daemon.url}/api/agents/v1${path}`, { ...init, headers: { 'x-api-key': t.key.api_key, 'content-type': 'application/json', ...(init.headers as Record<string, string>) } }).then(
    async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }),
  );

beforeAll(() => {
  cwd = join(t.root, 'work');
  mkdirSync(join(cwd, 'bin'), { recursive: true });
  writeFileSync(join(cwd, 'clip.mp4'), MP4);
  // The doc's `uuidgen`, where the machine has none, as the doc says: node's randomUUID.
  writeFileSync(join(cwd, 'bin', 'uuidgen'), `#!/bin/sh\nexec "${process.execPath}" -p 'crypto.randomUUID()'\n`);
  chmodSync(join(cwd, 'bin', 'uuidgen'), 0o755);
  env = { ...process.env, ...t.env, PATH: `${join(cwd, 'bin')}:${process.env.PATH ?? ''}`, SP: `${t.daemon.url}/api/agents/v1`, KEY: t.key.api_key };
});

/** The doc's made-up ids, each replaced by a real one of its kind, made here. */
async function realIds(): Promise<{ replace: (example: string, index: number) => string; next: string; inbox: string; jobs: Record<'scheduled' | 'toApprove' | 'toReject' | 'toRevise' | 'published', string> }> {
  const publish = async (body: Record<string, unknown>) => {
    const r = await api('/content/publish', { method: 'POST', body: JSON.stringify(body) });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.job_id as string;
  };
  const later = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();
  // Jobs: one the PATCH moves and the DELETE cancels, and three held for approval.
  const scheduled = await publish({ caption: 'api.md examples', platforms: ['twitter'], scheduled_for: later(48) });
  const admin = openAdmin(t.dataDir);
  admin.setApprovalWorkflow(t.key.email, true);
  const toApprove = await publish({ caption: 'to approve', platforms: ['twitter'], scheduled_for: later(49) });
  const toReject = await publish({ caption: 'to reject', platforms: ['twitter'], scheduled_for: later(50) });
  const toRevise = await publish({ caption: 'to revise', platforms: ['twitter'], scheduled_for: later(51) });
  admin.setApprovalWorkflow(t.key.email, false);
  admin.close();
  // A published job, for the figures and take-down examples.
  const published = await publish({ caption: 'api.md take-down example', platforms: ['twitter'], publish_now: true });
  await expect
    .poll(async () => ((await api(`/content/scheduled?job_id=${published}`)).body.post as { status: string }).status, { timeout: 20_000, interval: 100 })
    .toBe('published');
  // A comment to read, answer and hide: a reader's reply to a published Mastodon status.
  const toot = await publish({ caption: 'api.md inbox example', platforms: ['mastodon'], publish_now: true });
  await expect
    .poll(async () => ((await api(`/content/scheduled?job_id=${toot}`)).body.post as { status: string }).status, { timeout: 20_000, interval: 100 })
    .toBe('published');
  const statusId = ((await api(`/content/scheduled?job_id=${toot}`)).body.post as { targets: { post_id: string }[] }).targets[0]!.post_id;
  const mastodonOrigin = (await t.run('sandbox endpoints --json')).json<{ endpoints: Record<string, string> }>().endpoints['mastodon.social']!;
  const inbox = await inboxItem(api, mastodonOrigin, statusId);
  const seriesJob = await api('/content/publish', {
    method: 'POST',
    body: JSON.stringify({ caption: 'weekly', platforms: ['twitter'], scheduled_for: later(24), recurrence: { rrule: 'FREQ=WEEKLY', count: 3 } }),
  });
  expect(seriesJob.status, JSON.stringify(seriesJob.body)).toBe(200);
  const series = (await api('/content/series')).body.series as { series_id: string }[];
  const seriesId = series[0]?.series_id as string;
  // A prepared photo and clip: the uploads' files.
  const upload = async (name: string, type: string, bytes: Buffer) => {
    const r = await fetch(`${t.daemon.url}/api/agents/v1/media/upload?filename=${name}`, { method: 'POST', headers: { 'x-api-key': t.key.api_key, 'content-type': type }, body: bytes });
    const body = (await r.json()) as { task_id: string; files: { prepared_url: string }[] };
    expect(r.status, JSON.stringify(body)).toBe(200);
    return { taskId: body.task_id, url: body.files[0]?.prepared_url as string };
  };
  const photo = await upload('photo.jpg', 'image/jpeg', JPEG);
  const clip = await upload('clip.mp4', 'video/mp4', MP4);
  const page = await api('/content/scheduled?limit=1');
  const next = page.body.next_cursor as string;
  expect(next).toMatch(/\S/);

  return {
    next,
    inbox,
    jobs: { scheduled, toApprove, toReject, toRevise, published },
    replace: (example) => {
      let e = example.replaceAll('http://127.0.0.1:8787', t.daemon.url);
      if (e.includes('/approve?')) e = e.replace(JOB, toApprove);
      else if (e.includes('/reject?')) e = e.replace(JOB, toReject);
      else if (e.includes('/unpublish?') || e.includes('/analytics/')) e = e.replace(JOB, published);
      else if (e.includes('/request-changes?') || e.includes('/comments?')) e = e.replace(JOB, toRevise);
      else e = e.replace(JOB, scheduled);
      return e
        .replace(INBOX_ITEM, inbox)
        .replace('ser_4k2m9x', seriesId)
        .replace('task_2c7…', photo.taskId)
        .replace(/"http:\/\/127\.0\.0\.1:\d+\/files\/3k9…\/photo\.jpg"/, `"${photo.url}"`)
        .replace(/"http:\/\/127\.0\.0\.1:\d+\/files\/3k9…\/clip\.mp4"/, `"${clip.url}"`);
    },
  };
}

describe('the examples of docs/api.md', () => {
  const examples = shellExamples(doc);

  it('are each run below or set aside with a reason', () => {
    expect(examples.length).toBeGreaterThan(20);
    for (const e of examples) expect(e in NOT_RUN || e.startsWith('curl '), e).toBe(true);
  });

  it('answer 2xx as written, in order, against a daemon with sandbox connections', async () => {
    const ids = await realIds();
    const ran: string[] = [];
    for (const [i, example] of examples.entries()) {
      if (example in NOT_RUN) continue;
      const command = ids.replace(example, i);
      expect(command, `a made-up id left in: ${example}`).not.toMatch(/…/);
      // curl as written, plus: fail on no answer, and print the status last.
      const r = await execa('bash', ['-c', `curl() { command curl -sS -w '\\n%{http_code}' "$@"; }\n${command}`], { cwd, env: { ...env, NEXT: ids.next }, extendEnv: false, reject: false });
      expect(r.exitCode, `${example}\n${r.stderr}`).toBe(0);
      const status = Number(r.stdout.split('\n').at(-1));
      expect(status, `${example}\n${r.stdout.slice(0, 500)}`).toBeGreaterThanOrEqual(200);
      expect(status, `${example}\n${r.stdout.slice(0, 500)}`).toBeLessThan(300);
      ran.push(example);
    }
    expect(ran.length).toBe(examples.filter((e) => !(e in NOT_RUN)).length);
    // What the requests did, seen from outside: the DELETE cancelled the job the PATCH moved,
    // one held job was approved and the other rejected, the published one taken down.
    const status = async (id: string) => ((await api(`/content/scheduled?job_id=${id}`)).body.post as { status: string }).status;
    expect(await status(ids.jobs.scheduled)).toBe('cancelled');
    expect(await status(ids.jobs.toApprove)).toBe('scheduled');
    expect(await status(ids.jobs.toReject)).toBe('cancelled');
    expect(await status(ids.jobs.toRevise)).toBe('changes_requested');
    expect(await status(ids.jobs.published)).toBe('removed');
    // The inbox item was read, answered once and hidden.
    const item = ((await api('/inbox')).body.items as { id: string; status: string; replies: { text: string }[] }[]).find((i) => i.id === ids.inbox)!;
    expect([item.status, item.replies.map((r) => r.text)]).toEqual(['hidden', ['Thanks, glad it helped!']]);
  });

  it('the Bearer form of the key is accepted like X-API-Key', async () => {
    const r = await execa('bash', ['-c', `curl -sS -o /dev/null -w '%{http_code}' "$SP/platforms" -H "Authorization: Bearer $KEY"`], { env, extendEnv: false });
    expect(r.stdout).toBe('200');
    const bad = await execa('bash', ['-c', `curl -sS -o /dev/null -w '%{http_code}' "$SP/platforms" -H "Authorization: Bearer sp_key_x_y"`], { env, extendEnv: false });
    expect(bad.stdout).toBe('401');
  });
});
