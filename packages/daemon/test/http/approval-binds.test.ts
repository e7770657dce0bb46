import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { API, harness, type Harness } from './harness';

const later = '2026-12-25T12:00:00Z';

interface Answer {
  message: string;
  post: { job_id: string; status: string; version: number; caption: string; targets: { status: string }[] };
}

async function approvedPost(h: Harness, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const made = (await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'as approved', platforms: ['twitter', 'mastodon'], scheduled_for: later, ...extra }, headers })).json()) as { job_id: string; status: string };
  expect(made.status).toBe('pending_approval');
  const approved = await h.call('POST', `${API}/content/scheduled/approve?job_id=${made.job_id}`, { headers: { 'X-SocialPub-Source': 'cli' } });
  expect(((await approved.json()) as Answer).post.status).toBe('scheduled');
  return made.job_id;
}

const patch = async (h: Harness, jobId: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await h.call('PATCH', `${API}/content/scheduled?job_id=${jobId}`, { body, headers });
  expect(res.status).toBe(200);
  return (await res.json()) as Answer;
};

const heldAgainEvents = (h: Harness) =>
  (h.db.prepare("SELECT data FROM events WHERE type = 'post.pending_approval' ORDER BY id").all() as { data: string }[]).map((e) => JSON.parse(e.data) as { reason?: string; version?: number; targets: unknown[] }).filter((d) => d.reason === 'edited');

describe('approval binds to what was approved', () => {
  it('sends an approved post back to review when its caption is edited (PATCH), with a new version and a post.pending_approval event', async () => {
    const h = harness();
    h.connect(['twitter', 'mastodon']);
    const jobId = await approvedPost(h, { require_approval: true });
    h.scheduler.changed = [];
    const edited = await patch(h, jobId, { caption: 'not what was approved' });
    expect(edited.post).toMatchObject({ status: 'pending_approval', version: 2, caption: 'not what was approved' });
    expect(edited.post.targets.map((t) => t.status)).toEqual(['pending_approval', 'pending_approval']);
    expect(edited.message).toBe(`Updated ${jobId}; the edit goes back for approval before it is published (socialpub schedule approve ${jobId})`);
    // The scheduler re-reads the held targets (it drops them from its timers).
    expect(h.scheduler.changed.flat()).toHaveLength(2);
    expect(heldAgainEvents(h)).toEqual([expect.objectContaining({ reason: 'edited', version: 2, targets: [expect.anything(), expect.anything()] })]);
    // Approving the new version releases it again.
    const again = await h.call('POST', `${API}/content/scheduled/approve?job_id=${jobId}`);
    expect(((await again.json()) as Answer).post).toMatchObject({ status: 'scheduled', version: 2 });
  });

  it('does the same for platform_captions and platform_options under the approval workflow; a re-time alone keeps the approval', async () => {
    const h = harness();
    h.connect(['twitter', 'mastodon']);
    h.store.users.setApprovalWorkflow(h.user.id, true);
    h.user.approvalWorkflow = true;
    const jobId = await approvedPost(h);
    const moved = await patch(h, jobId, { scheduled_for: '2026-12-25T13:00:00Z' });
    expect(moved.post).toMatchObject({ status: 'scheduled', version: 1 });
    const captions = await patch(h, jobId, { platform_captions: { mastodon: 'for the fediverse' } });
    expect(captions.post).toMatchObject({ status: 'pending_approval', version: 2 });
    await h.call('POST', `${API}/content/scheduled/approve?job_id=${jobId}`);
    const options = await patch(h, jobId, { platform_options: { mastodon: { visibility: 'unlisted' } } });
    expect(options.post).toMatchObject({ status: 'pending_approval', version: 3 });
    // An edit that changes nothing of the content is no new version.
    await h.call('POST', `${API}/content/scheduled/approve?job_id=${jobId}`);
    const same = await patch(h, jobId, { caption: 'as approved' });
    expect(same.post).toMatchObject({ status: 'scheduled', version: 3 });
  });

  it('leaves a post no approval rule holds scheduled when edited (only its version moves)', async () => {
    const h = harness();
    h.connect(['twitter', 'mastodon']);
    const made = (await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'free', platforms: ['twitter'], scheduled_for: later } })).json()) as { job_id: string };
    const edited = await patch(h, made.job_id, { caption: 'still free' });
    expect(edited.post).toMatchObject({ status: 'scheduled', version: 2 });
    expect(heldAgainEvents(h)).toEqual([]);
  });

  it('holds an agent’s caption edit (MCP retime_post) for a person while agent-approval is on, and the agent cannot approve its own edit', async () => {
    const h = harness();
    h.connect(['twitter', 'mastodon']);
    expect(h.user.agentApproval).toBe(true);
    const jobId = await approvedPost(h, {}, { 'X-SocialPub-Source': 'mcp' });
    const byAgent = await patch(h, jobId, { caption: 'the agent changed its mind' }, { 'X-SocialPub-Source': 'mcp' });
    expect(byAgent.post.status).toBe('pending_approval');
    const selfApproval = await h.call('POST', `${API}/content/scheduled/approve?job_id=${jobId}`, { headers: { 'X-SocialPub-Source': 'mcp' } });
    expect(selfApproval.status).toBe(403);
    // A post a person made, edited by an agent: the agent's words wait too, for a person.
    const made = (await (await h.call('POST', `${API}/content/publish`, { body: { caption: 'by hand', platforms: ['twitter'], scheduled_for: later } })).json()) as { job_id: string; status: string };
    expect(made.status).toBe('scheduled');
    const agentEdit = await patch(h, made.job_id, { caption: 'by the agent' }, { 'X-SocialPub-Source': 'mcp' });
    expect(agentEdit.post.status).toBe('pending_approval');
    expect((await h.call('POST', `${API}/content/scheduled/approve?job_id=${made.job_id}`, { headers: { 'X-SocialPub-Source': 'mcp' } })).status).toBe(403);
    // A person's edit of what the agent wrote is the person's: approved as it stands.
    await h.call('POST', `${API}/content/scheduled/approve?job_id=${made.job_id}`, { headers: { 'X-SocialPub-Source': 'cli' } });
    const byPerson = await patch(h, made.job_id, { caption: 'by hand again' }, { 'X-SocialPub-Source': 'cli' });
    expect(byPerson.post.status).toBe('scheduled');
  });

  it('holds an approved post again when an agent edits its caption with MCP retime_post (the tool call, end to end)', async () => {
    const h = harness();
    h.connect(['twitter', 'mastodon']);
    const jobId = await approvedPost(h, { require_approval: true });
    const client = new Client({ name: 'approval-test-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      requestInit: { headers: { 'X-API-Key': h.key } },
      fetch: async (url, init) => h.app.request(String(url), init),
    });
    await client.connect(transport);
    try {
      const result = (await client.callTool({ name: 'retime_post', arguments: { job_id: jobId, caption: 'rewritten by the agent' } })) as CallToolResult;
      expect(result.isError ?? false).toBe(false);
      const post = (result.structuredContent as { post: { status: string; version: number; source: string } }).post;
      expect(post).toMatchObject({ status: 'pending_approval', version: 2 });
      expect((result.content[0] as { text: string }).text).toContain('the edit goes back for approval before it is published');
      // The agent cannot release its own words while agent-approval is on.
      const approve = (await client.callTool({ name: 'approve_post', arguments: { job_id: jobId } })) as CallToolResult;
      expect(approve.isError).toBe(true);
    } finally {
      await client.close();
    }
  });
});
