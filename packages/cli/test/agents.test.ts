import { describe, expect, it } from 'vitest';
import { useTestDaemon } from './daemon-harness';

const t = useTestDaemon({ connect: ['twitter'] });

describe('agents and the CLI', () => {
  it('records posts made with the CLI as source cli', async () => {
    const job = (await t.run('publish "typed by a person" -p twitter --at +2h --json')).json<{ job_id: string; status: string }>();
    expect(job.status).toBe('scheduled');
    expect((await t.run(`schedule show ${job.job_id} --json`)).json<{ source: string }>().source).toBe('cli');
  });

  it('turns agent-approval off and on with settings set', async () => {
    const off = await t.run('settings set agent-approval off --json');
    expect(off.code, off.stderr).toBe(0);
    expect(off.json<{ agent_approval: boolean; email: string }>()).toMatchObject({ agent_approval: false, email: 'tester@example.com' });
    const on = await t.run('settings set agent-approval on');
    expect(on.stdout).toContain('agent approval on: posts made through MCP wait for `socialpub schedule approve`');
    const bad = await t.run('settings set agent-approval sometimes');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('agent-approval is on or off');
  });
});
