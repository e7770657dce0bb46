import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { openAdmin } from '@socialpub/daemon';
import { TOOL_ROUTES, createSocialPubMcpServer } from '@socialpub/mcp';
import { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TOOLS, data, httpClient, setAgentApproval, startTestDaemon, toolErrorOf, type TestDaemon } from './harness';

let t: TestDaemon;
const clients: Client[] = [];

/** A key of `scope` for the test user, made with the local admin as `socialpub keys create --scope` does. */
function keyOf(scope: 'agent' | 'read'): string {
  const admin = openAdmin(t.dataDir);
  try {
    return admin.createKey({ email: t.key.email, scope }).api_key;
  } finally {
    admin.close();
  }
}

async function session(key: string): Promise<Client> {
  const client = await httpClient(t.daemon.url, { Authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter');
  // Off, so only the key's scope holds an agent key's posts (agent-approval would hold any MCP post).
  setAgentApproval(t, false);
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.stop();
});

describe('MCP sessions opened with a scoped key', () => {
  it('name the REST route of every tool they offer', () => {
    expect(Object.keys(TOOL_ROUTES).filter((name) => name !== 'upload_file')).toEqual(HTTP_TOOLS);
  });

  it('offer an agent key no approve, reject or unpublish, and hold its publish-now for approval', async () => {
    const mcp = await session(keyOf('agent'));
    const names = (await mcp.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(HTTP_TOOLS.filter((n) => !['approve_post', 'reject_post', 'request_changes', 'unpublish_post', 'update_connection'].includes(n)));
    const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'agent draft', platforms: ['twitter'], publish_now: true } });
    const held = data<{ job_id: string; status: string }>(r);
    expect(held.status).toBe('pending_approval');
    // Not offered, so not callable either.
    const approve = await mcp.callTool({ name: 'approve_post', arguments: { job_id: held.job_id } });
    expect(approve.isError).toBe(true);
    const still = data<{ post: { status: string } }>(await mcp.callTool({ name: 'get_post', arguments: { job_id: held.job_id } }));
    expect(still.post.status).toBe('pending_approval');
  });

  it('offer a read key only the tools that change nothing', async () => {
    const mcp = await session(keyOf('read'));
    const names = (await mcp.listTools()).tools.map((x) => x.name);
    expect(names).toEqual(['whoami', 'list_platforms', 'validate_post', 'list_posts', 'get_post', 'get_post_metrics', 'get_analytics_summary', 'export_analytics_csv', 'media_status', 'list_sandbox_posts', 'list_connections', 'list_inbox']);
    expect(data<{ scope: string }>(await mcp.callTool({ name: 'whoami' })).scope).toBe('read');
  });

  it('offer a full key every tool, as before', async () => {
    const mcp = await session(t.key.api_key);
    expect((await mcp.listTools()).tools.map((x) => x.name)).toEqual(HTTP_TOOLS);
  });
});

describe('the media routes, mounted by the media module', () => {
  it('refuse a read key (403 insufficient_scope) and let an agent key prepare media', async () => {
    const call = (key: string) =>
      fetch(`${t.daemon.url}/api/agents/v1/media/prepare`, { method: 'POST', headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ urls: ['https://example.com/a.jpg'] }) });
    const refused = await call(keyOf('read'));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_scope');
    const accepted = await call(keyOf('agent'));
    expect(accepted.status).toBe(200);
    expect(((await accepted.json()) as { task_id: string }).task_id).toMatch(/^task_/);
  });
});

describe('a server that does not know the scope (stdio)', () => {
  it('offers every tool, and the daemon refuses a call the key may not make: a tool error insufficient_scope', async () => {
    const agentKey = keyOf('agent');
    const backend = new SocialPub({ baseUrl: t.daemon.url, apiKey: agentKey, headers: { 'X-SocialPub-Source': 'mcp' }, maxRetries: 0 });
    const { server } = createSocialPubMcpServer({ backend });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const mcp = new Client({ name: 'stdio-like', version: '1.0.0' });
    await mcp.connect(clientSide);
    clients.push(mcp);
    expect((await mcp.listTools()).tools.map((x) => x.name)).toEqual(HTTP_TOOLS);
    const held = data<{ job_id: string; status: string }>(await mcp.callTool({ name: 'publish_post', arguments: { caption: 'stdio draft', platforms: ['twitter'], publish_now: true } }));
    expect(held.status).toBe('pending_approval');
    const refused = await mcp.callTool({ name: 'approve_post', arguments: { job_id: held.job_id } });
    expect(toolErrorOf(refused)).toMatchObject({ code: 'insufficient_scope', status: 403, next_step: expect.stringContaining('socialpub schedule approve') });
  });
});
