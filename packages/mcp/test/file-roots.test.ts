/**
 * Issue 28, item 7: upload_file over stdio read any file the user could read (/etc/shadow,
 * the daemon's secret.key). Now it reads only under the roots the MCP client declares, or
 * under the folders the user configured (--file-root, SOCIALPUB_MCP_FILE_ROOT). The built
 * CLI (`socialpub mcp`) as a child process, the official MCP client declaring its roots.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema, type Root } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, startTestDaemon, toolErrorOf, type TestDaemon } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'socialpub');
// A 1x1 PNG: the daemon judges the kind from these bytes.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0c9d4e10000000049454e44ae426082', 'hex');

let t: TestDaemon;
let base: string;
let allowed: string;
let outside: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestDaemon();
  base = mkdtempSync(join(tmpdir(), 'socialpub-mcp-roots-'));
  allowed = join(base, 'allowed');
  outside = join(base, 'outside');
  mkdirSync(join(allowed, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(allowed, 'sub', 'cover.png'), PNG);
  writeFileSync(join(outside, 'private.png'), PNG);
  symlinkSync(join(outside, 'private.png'), join(allowed, 'link-out.png'));
  symlinkSync(outside, join(allowed, 'dir-out'));
  symlinkSync(join(allowed, 'sub', 'cover.png'), join(outside, 'link-in.png'));
}, 60_000);
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.stop();
  if (base) rmSync(base, { recursive: true, force: true });
});

/** `socialpub mcp` with the official client; `roots` given: the client declares the roots capability and answers roots/list with them. */
async function connect(opts: { roots?: Root[]; args?: string[]; env?: Record<string, string> } = {}): Promise<{ client: Client; setRoots(r: Root[]): Promise<void> }> {
  let roots = opts.roots ?? [];
  const client = new Client({ name: 'roots-test', version: '1.0.0' }, opts.roots ? { capabilities: { roots: { listChanged: true } } } : {});
  if (opts.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots }));
  const transport = new StdioClientTransport({ command: bin, args: ['mcp', ...(opts.args ?? [])], env: { PATH: process.env.PATH ?? '', ...t.env, ...opts.env } as Record<string, string>, cwd: base, stderr: 'pipe' });
  await client.connect(transport);
  clients.push(client);
  return {
    client,
    async setRoots(r) {
      roots = r;
      await client.sendRootsListChanged();
    },
  };
}

const upload = (client: Client, path: string) => client.callTool({ name: 'upload_file', arguments: { path } });
const uploaded = async (client: Client, path: string) => data<{ status: string; files: { type: string }[] }>(await upload(client, path));

describe('upload_file reads only under allowed folders', () => {
  it('under the roots the client declares: inside yes; .., absolute paths, symlinks leading out, the secret key no', async () => {
    const { client } = await connect({ roots: [{ uri: pathToFileURL(allowed).href, name: 'allowed' }] });
    expect(await uploaded(client, 'allowed/sub/cover.png')).toMatchObject({ status: 'completed', files: [{ type: 'image' }] });
    expect(await uploaded(client, join(allowed, 'sub', 'cover.png'))).toMatchObject({ status: 'completed' });
    // A link from outside into the root names a file inside: allowed.
    expect(await uploaded(client, 'outside/link-in.png')).toMatchObject({ status: 'completed' });
    for (const [path, shown] of [
      ['allowed/../outside/private.png', join(outside, 'private.png')],
      [join(outside, 'private.png'), join(outside, 'private.png')],
      ['allowed/link-out.png', `${join(allowed, 'link-out.png')} (which leads to ${join(outside, 'private.png')})`],
      ['allowed/dir-out/private.png', `${join(allowed, 'dir-out', 'private.png')} (which leads to ${join(outside, 'private.png')})`],
      [join(t.dataDir, 'secret.key'), join(t.dataDir, 'secret.key')],
      ['/etc/passwd', '/etc/passwd'],
    ] as [string, string][]) {
      const e = toolErrorOf(await upload(client, path));
      expect(e.code, path).toBe('invalid_request');
      expect(e.message, path).toBe(
        `${shown} is outside the folders upload_file may read (the MCP client's roots: ${allowed}); start \`socialpub mcp --file-root <dir>\` (or set SOCIALPUB_MCP_FILE_ROOT), or let your MCP client declare the folder as a root`,
      );
      expect(e.details).toEqual([{ path: 'path', message: e.message }]);
    }
    expect(toolErrorOf(await upload(client, 'allowed/sub')).message).toBe(`${join(allowed, 'sub')} is not a file`);
    expect(toolErrorOf(await upload(client, 'allowed/nope.png')).message).toMatch(/^cannot read .*nope\.png: ENOENT/);
  }, 60_000);

  it('follows the client when its roots change (notifications/roots/list_changed)', async () => {
    const session = await connect({ roots: [{ uri: pathToFileURL(allowed).href }] });
    expect(toolErrorOf(await upload(session.client, 'outside/private.png')).code).toBe('invalid_request');
    await session.setRoots([{ uri: pathToFileURL(outside).href }]);
    expect(await uploaded(session.client, 'outside/private.png')).toMatchObject({ status: 'completed' });
    expect(toolErrorOf(await upload(session.client, 'allowed/sub/cover.png')).message).toContain('is outside the folders upload_file may read');
  }, 60_000);

  it('refuses everything when the client declares no roots and nothing is configured, saying how to allow a folder', async () => {
    const { client } = await connect();
    const e = toolErrorOf(await upload(client, 'allowed/sub/cover.png'));
    expect(e.message).toBe(
      'upload_file reads files only under allowed folders, and there are none: this MCP client declares no roots; start `socialpub mcp --file-root <dir>` (or set SOCIALPUB_MCP_FILE_ROOT), or let your MCP client declare the folder as a root',
    );
  }, 60_000);

  it('with --file-root or SOCIALPUB_MCP_FILE_ROOT, reads under those folders instead of the client roots', async () => {
    const flagged = await connect({ roots: [{ uri: pathToFileURL(outside).href }], args: ['--file-root', 'allowed'] });
    expect(await uploaded(flagged.client, 'allowed/sub/cover.png')).toMatchObject({ status: 'completed' });
    expect(toolErrorOf(await upload(flagged.client, 'outside/private.png')).message).toContain(`(the configured file roots: ${allowed})`);
    const env = await connect({ env: { SOCIALPUB_MCP_FILE_ROOT: outside } });
    expect(await uploaded(env.client, 'outside/private.png')).toMatchObject({ status: 'completed' });
    expect(toolErrorOf(await upload(env.client, 'allowed/sub/cover.png')).message).toContain(`(the configured file roots: ${outside})`);
  }, 60_000);
});
