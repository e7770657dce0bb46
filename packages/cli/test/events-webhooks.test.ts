import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ webhookAllowPrivate: true, connect: ['twitter'] });

interface Event {
  id: string;
  type: string;
  job_id: string | null;
  data: Record<string, unknown>;
}

describe('socialpub events', () => {
  it('prints the kept events, filtered by type and job, as lines or JSON lines', async () => {
    const published = await t.run('publish "events from the CLI" -p twitter --now --wait --json');
    expect(published.code, published.stderr).toBe(0);
    const jobId = published.json<{ job_id: string }>().job_id;
    const all = await t.run(`events --job ${jobId} --json`);
    expect(all.code, all.stderr).toBe(0);
    const events = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as Event);
    expect(events.map((e) => e.type)).toEqual(['post.accepted', 'target.publishing', 'target.published', 'post.finished']);
    expect(events.every((e) => e.job_id === jobId)).toBe(true);
    const only = await t.run(`events --job ${jobId} --type target.published`);
    expect(only.code).toBe(0);
    expect(only.stdout.trim().split('\n')).toHaveLength(1);
    expect(only.stdout).toMatch(new RegExp(`evt_\\d+  target\\.published  ${jobId}  twitter\\.tweet  https://x\\.com/`));
    const bad = await t.run('events --type post.exploded');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown event type "post.exploded"/);
  });

  it('schedule show --follow prints the job\'s events until it settles', async () => {
    // Held until approved, so the follow starts before it settles (a settled job shows the post alone).
    const r = await t.run('publish "followed" -p twitter --now --require-approval --json');
    const jobId = r.json<{ job_id: string }>().job_id;
    const following = t.run(`schedule show ${jobId} --follow --json`);
    expect((await t.run(`schedule approve ${jobId}`)).code).toBe(0);
    const follow = await following;
    expect(follow.code, follow.stderr).toBe(0);
    const lines = follow.stdout.trim().split('\n').map((l) => JSON.parse(l) as Event & { status?: string });
    expect(lines.at(-1)).toMatchObject({ job_id: jobId, status: 'published' });
    expect(lines.slice(0, -1).map((e) => e.type)).toContain('post.finished');
  });
});

describe('socialpub webhooks', () => {
  it('adds, lists, tests, shows deliveries, redelivers and removes, all with --json', async () => {
    const { createServer } = await import('node:http');
    let hits = 0;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        hits++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
      const add = await t.run(`webhooks add ${url} -e target.* --description cli --json`);
      expect(add.code, add.stderr + add.stdout).toBe(0);
      const hook = add.json<{ id: string; secret: string; event_types: string[] }>();
      expect(hook.secret).toMatch(/^whsec_/);
      expect(hook.event_types).toEqual(['target.publishing', 'target.published', 'target.retrying', 'target.failed', 'target.needs_review', 'target.removed']);
      const human = await t.run('webhooks list');
      expect(human.stdout).toContain(hook.id);
      expect(human.stdout).not.toContain('whsec_');
      expect((await t.run(`webhooks test ${hook.id} --json`)).json<{ delivery_id: string }>().delivery_id).toMatch(/^msg_\d+$/);
      for (let i = 0; i < 100 && hits < 1; i++) await new Promise((r) => setTimeout(r, 50));
      const deliveries = (await t.run(`webhooks deliveries ${hook.id} --json`)).json<{ deliveries: { id: string; status: string; attempts: { status_code: number }[] }[] }>().deliveries;
      expect(deliveries.map((d) => [d.status, d.attempts.map((a) => a.status_code)])).toEqual([['delivered', [200]]]);
      const again = await t.run(`webhooks redeliver ${hook.id} ${deliveries[0]!.id}`);
      expect(again.code, again.stderr).toBe(0);
      for (let i = 0; i < 100 && hits < 2; i++) await new Promise((r) => setTimeout(r, 50));
      expect(hits).toBe(2);
      const refused = await t.run('webhooks add https://169.254.169.254/x --json');
      expect(refused.code).toBe(2);
      expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/metadata/) });
      expect((await t.run(`webhooks remove ${hook.id}`)).code).toBe(0);
      expect((await t.run('webhooks list --json')).json<{ webhooks: unknown[] }>().webhooks).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });
});
