/**
 * Issue 28, item 8: a tools/call whose `arguments` is not an object got -32603 Internal
 * error with a raw zod dump. Now -32602 Invalid params with a readable message, on both
 * transports (the daemon's /mcp and `socialpub mcp` on stdio), with the official client
 * sending the malformed requests; a well-formed call on the same session still works.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, httpClient, startTestDaemon, type TestDaemon } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));
let t: TestDaemon;
let cwd: string;
const clients: Client[] = [];

beforeAll(async () => {
  if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) throw new Error('run `scripts/pnpm build` before the tests (CI does)');
  t = await startTestDaemon();
  cwd = mkdtempSync(join(tmpdir(), 'socialpub-mcp-params-'));
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.stop();
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

async function transports(): Promise<[string, Client][]> {
  const http = await httpClient(t.daemon.url, { Authorization: `Bearer ${t.key.api_key}` });
  const stdio = new McpClient({ name: 'params-test', version: '1.0.0' });
  await stdio.connect(new StdioClientTransport({ command: join(root, 'bin', 'socialpub'), args: ['mcp'], env: { PATH: process.env.PATH ?? '', ...t.env } as Record<string, string>, cwd, stderr: 'pipe' }));
  clients.push(http, stdio);
  return [
    ['http', http],
    ['stdio', stdio],
  ];
}

async function errorOf(client: Client, params: unknown): Promise<McpError> {
  try {
    await client.request({ method: 'tools/call', params: params as { name: string } }, CallToolResultSchema);
  } catch (error) {
    return error as McpError;
  }
  throw new Error(`tools/call ${JSON.stringify(params)} succeeded`);
}

describe('tools/call with malformed params', () => {
  it('is -32602 Invalid params with a readable message on both transports, and the session keeps working', async () => {
    for (const [name, client] of await transports()) {
      for (const [params, message] of [
        [{ name: 'get_post', arguments: 'job_1' }, `Invalid params: tools/call arguments must be an object of the tool's parameters, e.g. {"job_id": "job_…"} (get_post got a string)`],
        [{ name: 'get_post', arguments: ['job_1'] }, `Invalid params: tools/call arguments must be an object of the tool's parameters, e.g. {"job_id": "job_…"} (get_post got an array)`],
        [{ name: 'whoami', arguments: 42 }, `Invalid params: tools/call arguments must be an object of the tool's parameters, e.g. {"job_id": "job_…"} (whoami got a number)`],
        [{ name: 'whoami', arguments: null }, `Invalid params: tools/call arguments must be an object of the tool's parameters, e.g. {"job_id": "job_…"} (whoami got null)`],
        [{ name: 7 }, `Invalid params: tools/call params.name must be the tool's name as a string (got a number)`],
      ] as const) {
        const e = await errorOf(client, params);
        expect(e, `${name} ${JSON.stringify(params)}`).toBeInstanceOf(McpError);
        expect(e.code, name).toBe(ErrorCode.InvalidParams);
        expect(e.message, name).toBe(`MCP error -32602: ${message}`);
        expect(e.message).not.toMatch(/"code":|invalid_type|expected/);
      }
      const who = data<{ user: { email: string } }>(await client.callTool({ name: 'whoami', arguments: {} }));
      expect(who.user.email, name).toBe(t.key.email);
    }
  }, 60_000);
});
