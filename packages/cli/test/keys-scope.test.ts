import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['twitter'] });

describe('socialpub keys create --scope', () => {
  it('makes an agent key: listed with its scope, its publish-now held, its approve refused (exit 3, insufficient_scope)', async () => {
    const made = await t.run('keys create --scope agent --name claude --json');
    expect(made.code).toBe(0);
    const agent = made.json<{ api_key: string; key_id: string; scope: string }>();
    expect(agent.scope).toBe('agent');

    const listed = (await t.run('keys list --json')).json<{ keys: { key_id: string; scope: string }[] }>();
    expect(listed.keys.map((k) => [k.key_id, k.scope])).toEqual([[t.key.key_id, 'full'], [agent.key_id, 'agent']]);
    const table = await t.run('keys list');
    expect(table.stdout).toMatch(/^KEY\s+USER\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATUS\s+SCOPE/);
    expect(table.stdout.split('\n').find((l) => l.startsWith(agent.key_id))).toMatch(/\sagent\s*$/);

    const env = { env: { SOCIALPUB_API_KEY: agent.api_key } };
    const held = await t.run('publish "drafted by an agent" -p twitter --now --json', env);
    expect(held.code).toBe(0);
    const job = held.json<{ job_id: string; status: string }>();
    expect(job.status).toBe('pending_approval');
    const approve = await t.run(`schedule approve ${job.job_id} --json`, env);
    expect(approve.code).toBe(3);
    expect(approve.json<{ error: { code: string } }>().error.code).toBe('insufficient_scope');
    // A person's key releases it.
    expect((await t.run(`schedule approve ${job.job_id} --json`)).code).toBe(0);
  });

  it('makes a read key that reads but cannot publish, and refuses an unknown scope (exit 2)', async () => {
    const read = (await t.run('keys create --scope read --json')).json<{ api_key: string }>();
    const env = { env: { SOCIALPUB_API_KEY: read.api_key } };
    expect((await t.run('schedule list --json', env)).code).toBe(0);
    const refused = await t.run('publish "no" -p twitter --now --json', env);
    expect(refused.code).toBe(3);
    expect(refused.json<{ error: { code: string; message: string } }>().error).toMatchObject({ code: 'insufficient_scope', message: expect.stringContaining('needs a key of scope agent') });

    // Said once, in the words of the command typed: one message, one hint, no details line.
    const human = await t.run('publish "no" -p twitter --now', env);
    expect(human.code).toBe(3);
    expect(human.stderr.trim().split('\n')).toEqual([
      "error: `socialpub publish` needs a key of scope agent or full; this key's scope is read",
      "hint: make one on the daemon's machine with `socialpub keys create --scope agent`, then use it (--api-key, SOCIALPUB_API_KEY or `socialpub config set api-key <key>`)",
    ]);
    // --json keeps its structure (the details included), in the same words.
    expect(refused.json<{ error: unknown }>().error).toEqual({
      code: 'insufficient_scope',
      message: "`socialpub publish` needs a key of scope agent or full; this key's scope is read",
      hint: "make one on the daemon's machine with `socialpub keys create --scope agent`, then use it (--api-key, SOCIALPUB_API_KEY or `socialpub config set api-key <key>`)",
      details: [{ path: 'scope', message: 'needs agent', required_scope: 'agent', key_scope: 'read' }],
      request_id: expect.any(String),
      exit_code: 3,
    });
    const approve = await t.run('schedule approve job_00000000000000000000', env);
    expect(approve.stderr).toContain("error: `socialpub schedule approve` needs a key of scope full; this key's scope is read\n");

    const bad = await t.run('keys create --scope admin');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown scope admin (one of: full, agent, read)');
  });

  it('defaults to a full key, and says the scope it made', async () => {
    const r = await t.run('keys create --user ana@example.com');
    expect(r.stdout).toMatch(/full key key_[0-9a-z]{20} created for ana@example.com/);
    const json = await t.run('keys create --user ana@example.com --json');
    expect(json.json<{ scope: string; email: string }>()).toMatchObject({ scope: 'full', email: 'ana@example.com' });
  });
});
