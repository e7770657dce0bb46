import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import type { SocialPubBackend } from '@socialpub/mcp';
import { describe, expect, it } from 'vitest';
import { McpSessions } from '../../src/mcp/mcp-sessions';
import { ManualClock } from '../../src/util/clock';

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'cap', version: '1' } } });

/** Opens a session of `userId` as the endpoint does (an initialize request through a new transport); returns its id. */
async function open(sessions: McpSessions, clock: ManualClock, userId: string): Promise<string> {
  await clock.advance(1_000);
  // initialize reaches no tool: the backend is never called.
  const transport = await sessions.open({ userId, keyId: `key_${userId}` }, {} as SocialPubBackend, { json: true, scope: 'full' });
  const res = await transport.handleRequest(new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: INIT }));
  expect(res.status).toBe(200);
  return res.headers.get('mcp-session-id')!;
}

describe('MCP sessions', () => {
  it('caps open sessions per user: one user past the cap closes their own oldest, never another user’s', async () => {
    const clock = new ManualClock();
    const sessions = new McpSessions({ clock, maxBodyBytes: 1_000_000, maxSessionsPerUser: 3 });
    const b = [await open(sessions, clock, 'usr_b'), await open(sessions, clock, 'usr_b')];
    const a: string[] = [];
    for (let i = 0; i < 5; i++) a.push(await open(sessions, clock, 'usr_a'));
    // A's three newest stay, its two oldest are closed; both of B's are untouched.
    expect(a.map((id) => sessions.get(id, 'key_usr_a') !== null)).toEqual([false, false, true, true, true]);
    expect(b.map((id) => sessions.get(id, 'key_usr_b') !== null)).toEqual([true, true]);
    expect(sessions.size).toBe(5);
    await sessions.closeAll();
  });
});
