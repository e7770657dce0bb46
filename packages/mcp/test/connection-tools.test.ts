import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { openAdmin } from '@socialpub/daemon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, httpClient, startTestDaemon, type TestDaemon } from './harness';

// The accounts tools (issue 39): list_connections for any key, update_connection for a full key.
let t: TestDaemon;
const clients: Client[] = [];

async function session(key: string): Promise<Client> {
  const client = await httpClient(t.daemon.url, { Authorization: `Bearer ${key}` });
  clients.push(client);
  return client;
}

function agentKey(): string {
  const admin = openAdmin(t.dataDir);
  try {
    return admin.createKey({ email: t.key.email, scope: 'agent' }).api_key;
  } finally {
    admin.close();
  }
}

type Listed = { data: { id: string; platform: string; label: string; is_default: boolean; sandbox: boolean }[] };
const textOf = (r: Awaited<ReturnType<Client['callTool']>>) => (r.content as { type: string; text: string }[])[0]!.text;

beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('bluesky');
  const admin = openAdmin(t.dataDir);
  admin.addSandboxConnection('bluesky', { email: t.key.email, label: 'brand' });
  admin.close();
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.stop();
});

describe('the MCP accounts tools', () => {
  it('list_connections names each account as platforms does, the default marked, without its sandbox password', async () => {
    const mcp = await session(t.key.api_key);
    const r = await mcp.callTool({ name: 'list_connections', arguments: {} });
    expect(r.isError).toBeFalsy();
    const listed = data<Listed>(r);
    expect(listed.data.map((c) => [c.platform, c.label, c.is_default, c.sandbox])).toEqual([
      ['bluesky', 'default', true, true],
      ['bluesky', 'brand', false, true],
    ]);
    expect(listed.data.every((c) => !('sandbox_password' in c))).toBe(true);
    const lines = textOf(r).split('\n');
    expect(lines[0]).toMatch(/^bluesky:default \(default: "bluesky" names it too\) con_\S+ sandbox, active/);
    expect(lines[1]).toMatch(/^bluesky:brand con_\S+ sandbox, active/);
  });

  it('update_connection renames an account and makes it the default with a full key', async () => {
    const mcp = await session(t.key.api_key);
    const brand = data<Listed>(await mcp.callTool({ name: 'list_connections', arguments: {} })).data.find((c) => c.label === 'brand')!;
    const r = await mcp.callTool({ name: 'update_connection', arguments: { connection_id: brand.id, label: 'company', default: true } });
    expect(r.isError).toBeFalsy();
    expect(data<{ label: string; is_default: boolean }>(r)).toMatchObject({ label: 'company', is_default: true });
    const after = data<Listed>(await mcp.callTool({ name: 'list_connections', arguments: {} })).data;
    // The default is listed first.
    expect(after.map((c) => [c.label, c.is_default])).toEqual([
      ['company', true],
      ['default', false],
    ]);
    const taken = await mcp.callTool({ name: 'update_connection', arguments: { connection_id: brand.id, label: 'default' } });
    expect(taken.isError).toBe(true);
    expect(textOf(taken)).toContain('[conflict]');
  });

  it('an agent key lists the accounts but is not offered update_connection', async () => {
    const mcp = await session(agentKey());
    const names = (await mcp.listTools()).tools.map((x) => x.name);
    expect(names).toContain('list_connections');
    expect(names).not.toContain('update_connection');
    expect(data<Listed>(await mcp.callTool({ name: 'list_connections', arguments: {} })).data).toHaveLength(2);
  });
});
