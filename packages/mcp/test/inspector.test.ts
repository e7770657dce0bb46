import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HTTP_TOOLS, setAgentApproval, startTestDaemon, type TestDaemon } from './harness';

/**
 * A client nobody here wrote: the MCP Inspector's CLI (@modelcontextprotocol/inspector,
 * a devDependency) lists the tools and calls one over both transports.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const inspectorBin = join(root, 'node_modules', '.bin', 'mcp-inspector');
const socialpub = join(root, 'bin', 'socialpub');

let t: TestDaemon;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter');
  setAgentApproval(t, false);
});
afterAll(async () => {
  await t?.stop();
});

const inspector = (args: string[]) =>
  new Promise<{ exitCode: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      inspectorBin,
      ['--cli', ...args],
      { env: { ...process.env, ...t.env, MCP_CATALOG_PATH: join(t.root, 'inspector-catalog.json') }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ exitCode: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });

const json = <T>(stdout: string) => JSON.parse(stdout) as T;
interface ToolList {
  tools: { name: string; annotations?: Record<string, boolean> }[];
}
interface CallResult {
  isError?: boolean;
  structuredContent?: { user?: { email: string }; posts?: unknown[] };
}

describe('the MCP Inspector CLI', () => {
  it('lists the tools and calls one over Streamable HTTP, with the key as a header', async () => {
    const http = [`${t.daemon.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${t.key.api_key}`];
    const list = await inspector([...http, '--method', 'tools/list']);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(json<ToolList>(list.stdout).tools.map((x) => x.name)).toEqual(HTTP_TOOLS);
    const call = await inspector([...http, '--method', 'tools/call', '--tool-name', 'whoami']);
    expect(call.exitCode, call.stderr).toBe(0);
    expect(json<CallResult>(call.stdout).structuredContent?.user?.email).toBe('tester@example.com');
    const refused = await inspector([`${t.daemon.url}/mcp`, '--transport', 'http', '--header', 'Authorization: Bearer sp_nope_nope', '--method', 'tools/list']);
    expect(refused.exitCode).not.toBe(0);
  });

  it('lists the tools and calls one over stdio (socialpub mcp as its child)', async () => {
    const stdio = ['-e', `SOCIALPUB_BASE_URL=${t.daemon.url}`, '-e', `SOCIALPUB_API_KEY=${t.key.api_key}`, '-e', `SOCIALPUB_CONFIG_DIR=${t.configDir}`, '--transport', 'stdio', '--', socialpub, 'mcp'];
    const list = await inspector([...stdio.slice(0, -3), '--method', 'tools/list', ...stdio.slice(-3)]);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(json<ToolList>(list.stdout).tools.map((x) => x.name)).toContain('upload_file');
    const call = await inspector([...stdio.slice(0, -3), '--method', 'tools/call', '--tool-name', 'list_sandbox_posts', '--tool-arg', 'platform=twitter', ...stdio.slice(-3)]);
    expect(call.exitCode, call.stderr).toBe(0);
    expect(json<CallResult>(call.stdout).structuredContent?.posts).toEqual([]);
  });

  it('finds no error-severity portability problem in the tool schemas (--strict)', async () => {
    const strict = await inspector([`${t.daemon.url}/mcp`, '--transport', 'http', '--header', `Authorization: Bearer ${t.key.api_key}`, '--method', 'tools/list', '--strict']);
    expect(strict.exitCode, strict.stderr).toBe(0);
  });
});
