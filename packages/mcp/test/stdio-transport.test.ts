import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { LATEST_PROTOCOL_VERSION, ListRootsRequestSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTP_TOOLS, data, setAgentApproval, startTestDaemon, text, toolErrorOf, publishedPost, type TestDaemon, type TestPost } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'socialpub');
// A 1x1 PNG: the daemon judges the kind from these bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0c9d4e10000000049454e44ae426082', 'hex');

type Post = TestPost;

let t: TestDaemon;
let mcp: Client;
let stderr = '';
let files: string;
let media: Server;
let origin: string;

/** The built CLI as a child process, speaking MCP on stdio. */
function stdioTransport(env: Record<string, string | undefined>): StdioClientTransport {
  const transport = new StdioClientTransport({ command: bin, args: ['mcp'], env: { PATH: process.env.PATH ?? '', ...env } as Record<string, string>, cwd: files, stderr: 'pipe' });
  return transport;
}

beforeAll(async () => {
  if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) throw new Error('run `scripts/pnpm build` before the tests (CI does)');
  t = await startTestDaemon({ mediaAllowPrivate: true });
  t.connect('twitter', 'threads');
  files = mkdtempSync(join(tmpdir(), 'socialpub-mcp-files-'));
  writeFileSync(join(files, 'cover.png'), PNG);
  // A slow server, so the tool's first status poll finds the task still processing.
  media = createServer((req, res) => {
    if (req.url !== '/photo.png') return void res.writeHead(404).end();
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG), 300);
  });
  media.listen(0, '127.0.0.1');
  await once(media, 'listening');
  origin = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
  const transport = stdioTransport(t.env);
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The client declares the folder of test files as its root: upload_file reads only under roots (file-roots.test.ts).
  mcp = new Client({ name: 'socialpub-test', version: '1.0.0' }, { capabilities: { roots: { listChanged: true } } });
  mcp.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: pathToFileURL(files).href, name: 'test files' }] }));
  await mcp.connect(transport);
});
afterAll(async () => {
  await mcp?.close();
  media?.close();
  await t?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});


describe('socialpub mcp (stdio, the built CLI as a child process)', () => {
  it('says on stderr which daemon it serves, and lists every tool including upload_file', async () => {
    expect(stderr).toContain(`socialpub mcp: serving on stdio; daemon`);
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name).sort()).toEqual([...HTTP_TOOLS, 'upload_file'].sort());
    const upload = tools.find((x) => x.name === 'upload_file')!;
    expect(upload.inputSchema.required).toEqual(['path']);
    expect(upload.annotations).toMatchObject({ readOnlyHint: false, openWorldHint: false });
    expect(tools.find((x) => x.name === 'get_post')!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
  });

  it('holds an agent post until `socialpub schedule approve`, then it goes out', async () => {
    const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'stdio agent draft', platforms: ['threads'], publish_now: true } });
    const held = data<{ job_id: string; status: string }>(r);
    expect(held.status).toBe('pending_approval');
    expect(text(r)).toContain('agent-approval is on');
    const approve = await t.run(`schedule approve ${held.job_id}`);
    expect(approve.code, approve.stderr).toBe(0);
    const post = await publishedPost(mcp, held.job_id);
    expect(post.source).toBe('mcp');
  });

  describe('with agent-approval off', () => {
    beforeAll(() => setAgentApproval(t, false));

    it('publishes to a sandbox connection and sees it published', async () => {
      const r = data<{ job_id: string; status: string }>(await mcp.callTool({ name: 'publish_post', arguments: { caption: 'stdio says hi', platforms: ['twitter'], publish_now: true } }));
      expect(r.status).toBe('publishing');
      expect((await publishedPost(mcp, r.job_id)).targets[0]?.status).toBe('published');
      const sandbox = data<{ posts: { body: Record<string, unknown> }[] }>(await mcp.callTool({ name: 'list_sandbox_posts', arguments: {} }));
      expect(sandbox.posts.map((p) => p.body.text)).toContain('stdio says hi');
    });

    it('schedules, re-times and cancels', async () => {
      const at = new Date(Date.now() + 86_400_000);
      const job = data<{ job_id: string }>(await mcp.callTool({ name: 'publish_post', arguments: { caption: 'tomorrow', platforms: ['twitter'], scheduled_for: at.toISOString() } }));
      const later = new Date(at.getTime() + 3_600_000).toISOString();
      const moved = data<{ post: Post }>(await mcp.callTool({ name: 'retime_post', arguments: { job_id: job.job_id, scheduled_for: later } }));
      expect(moved.post.targets[0]?.scheduled_for).toBe(later);
      expect(data<{ status: string }>(await mcp.callTool({ name: 'cancel_post', arguments: { job_id: job.job_id } })).status).toBe('cancelled');
      const again = await mcp.callTool({ name: 'retime_post', arguments: { job_id: job.job_id, scheduled_for: later } });
      expect(toolErrorOf(again)).toMatchObject({ code: 'conflict', status: 409, next_step: expect.stringContaining('get_post') });
    });

    it('refuses a publish to an unconnected platform as a tool error with code and hint', async () => {
      const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'video', platforms: ['youtube'], publish_now: true, media_urls: ['https://example.com/v.mp4'] } });
      expect(toolErrorOf(r)).toMatchObject({ code: 'platform_not_connected', next_step: expect.stringContaining('socialpub connect youtube') });
    });
  });

  it('uploads a local file (stdio only) and reports an unreadable path as the caller’s mistake', async () => {
    const r = await mcp.callTool({ name: 'upload_file', arguments: { path: 'cover.png' } });
    const task = data<{ status: string; files: { type: string; prepared_url: string }[] }>(r);
    expect(task.status).toBe('completed');
    expect(task.files[0]).toMatchObject({ type: 'image', prepared_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/files\//) });
    const missing = await mcp.callTool({ name: 'upload_file', arguments: { path: 'nope.png' } });
    expect(toolErrorOf(missing)).toMatchObject({ code: 'invalid_request', details: [{ path: 'path', message: expect.stringContaining('ENOENT') }] });
  });

  it('prepares media from a URL and waits, reporting progress notifications', async () => {
    const progress: Progress[] = [];
    const r = await mcp.callTool({ name: 'prepare_media', arguments: { urls: [`${origin}/photo.png`], wait: true } }, undefined, { onprogress: (p) => progress.push(p) });
    const result = data<{ task_id: string; task: { status: string; files: { original_url: string }[] } }>(r);
    expect(result.task.status).toBe('completed');
    expect(result.task.files.map((f) => f.original_url)).toEqual([`${origin}/photo.png`]);
    // The first poll sees nothing done yet. (The SDK's Client handles a notification a
    // microtask late, so one arriving with the result may be dropped: checked in wait-for-media.test.ts.)
    expect(progress[0]).toEqual({ progress: 0, total: 1, message: '0 of 1 files done' });
    expect(text(r)).toContain('Use the prepared URLs in media_urls.');
  });
});

describe('socialpub mcp without a daemon or a key', () => {
  it('says on stderr that no daemon runs, and every tool answers with the next step', async () => {
    const transport = stdioTransport({ ...t.env, SOCIALPUB_BASE_URL: 'http://127.0.0.1:9' });
    let err = '';
    transport.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const client = new Client({ name: 'socialpub-test', version: '1.0.0' });
    await client.connect(transport);
    expect(err).toContain('no socialpub daemon answers at http://127.0.0.1:9: start it with `socialpub up`');
    const r = await client.callTool({ name: 'whoami' });
    expect(toolErrorOf(r).next_step).toBe('start the daemon: socialpub up (or check its address)');
    await client.close();
  });

  it('exits 3 with a clear message when no API key is configured', async () => {
    const child = spawn(bin, ['mcp'], { env: { PATH: process.env.PATH ?? '', ...t.env, SOCIALPUB_API_KEY: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(3);
    expect(err).toContain('no API key');
  });

  it('answers a line that is not JSON with a JSON-RPC parse error and keeps serving', async () => {
    const child = spawn(bin, ['mcp'], { env: { PATH: process.env.PATH ?? '', ...t.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stdin.write('this is not json\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    await vi.waitFor(() => expect(out.split('\n').filter(Boolean)).toHaveLength(2), { timeout: 10_000, interval: 20 });
    const [first, second] = out.split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id: unknown; error?: { code: number }; result?: { serverInfo: { name: string } } });
    expect(first).toMatchObject({ id: null, error: { code: -32700 } });
    expect(second?.result?.serverInfo.name).toBe('socialpub');
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(0);
  });
});
