/**
 * Issue 28, item 6: user A read user B's sandbox captions through GET /sandbox/posts and
 * the MCP tool list_sandbox_posts. Two users, each with sandbox connections made as
 * `socialpub connect --sandbox` makes them, publish through a whole daemon (real
 * publisher, real simulators); each then lists only what their own connections posted.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openAdmin } from '../../src/admin/index';
import { serveSamples } from '../support/sandbox-daemon';
import { useTempDirs } from '../support/temp-dirs';
import { API, startChildDaemon, type ChildDaemon } from './probe';

const tempDir = useTempDirs();
let daemon: ChildDaemon;
const keys: Record<'a' | 'b', string> = { a: '', b: '' };
const cleanups: (() => unknown)[] = [];
/** Serves a sample MP4 and JPEG (the daemon fetches them: media_allow_private is on). */
let samples = '';

beforeAll(async () => {
  const dir = tempDir('sp-sandbox-users-');
  const admin = openAdmin(dir);
  keys.a = admin.createKey({ email: 'a@example.com' }).api_key;
  keys.b = admin.createKey({ email: 'b@example.com' }).api_key;
  for (const email of ['a@example.com', 'b@example.com']) {
    for (const platform of ['twitter', 'threads', 'facebook', 'instagram', 'youtube', 'tiktok']) admin.addSandboxConnection(platform, { email });
  }
  admin.close?.();
  samples = await serveSamples((f) => void cleanups.push(f));
  daemon = await startChildDaemon(dir, { PROBE_ALLOW_PRIVATE: '1' });
}, 60_000);
afterAll(async () => {
  await daemon?.stop();
  for (const f of cleanups) await f();
});

async function call(key: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${daemon.url}${API}${path}`, {
    method,
    headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

type Listed = { platform: string; body: Record<string, unknown> }[];
/** The caption as each simulator keeps it (text, message, caption, a YouTube snippet's description, TikTok's title). */
const captionOf = (p: Listed[number]) => {
  const b = p.body as { text?: string; message?: string; caption?: string; title?: string; snippet?: { description?: string } };
  return String(b.text ?? b.message ?? b.caption ?? b.snippet?.description ?? b.title ?? '');
};

describe('the sandbox per user', () => {
  it('GET /sandbox/posts and MCP list_sandbox_posts show each user only the posts of their own sandbox connections', async () => {
    for (const who of ['a', 'b'] as const) {
      const caption = `secret of ${who}`;
      const jobs = [
        (await call(keys[who], 'POST', '/content/publish', { caption, platforms: ['twitter', 'threads', 'facebook'], publish_now: true })) as { job_id: string },
        (await call(keys[who], 'POST', '/content/publish', { caption, platforms: ['instagram'], media_urls: [`${samples}/photo.jpg`], publish_now: true })) as { job_id: string },
        (await call(keys[who], 'POST', '/content/publish', { caption, platforms: ['youtube', 'tiktok'], media_urls: [`${samples}/clip.mp4`], publish_now: true, platform_options: { youtube: { title: caption }, tiktok: { privacy_level: 'SELF_ONLY' } } })) as { job_id: string },
      ];
      for (const job of jobs) {
        await vi.waitFor(
          async () => {
            const post = (await call(keys[who], 'GET', `/content/scheduled?job_id=${job.job_id}`)) as { post: { status: string } };
            expect(post.post.status).toBe('published');
          },
          { timeout: 30_000, interval: 100 },
        );
      }
    }
    for (const who of ['a', 'b'] as const) {
      const listed = (await call(keys[who], 'GET', '/sandbox/posts')).posts as Listed;
      expect(listed.map((p) => [p.platform, captionOf(p)]).sort()).toEqual(
        ['facebook', 'instagram', 'threads', 'tiktok', 'twitter', 'youtube'].map((platform) => [platform, `secret of ${who}`]),
      );
    }
    const client = new Client({ name: 'probe', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${daemon.url}/mcp`), { requestInit: { headers: { 'X-API-Key': keys.a } } }));
    try {
      const result = (await client.callTool({ name: 'list_sandbox_posts', arguments: {} })) as CallToolResult;
      const posts = (result.structuredContent as { posts: Listed }).posts;
      expect(posts.map(captionOf)).toEqual(Array.from({ length: 6 }, () => 'secret of a'));
    } finally {
      await client.close();
    }
  }, 120_000);
});
