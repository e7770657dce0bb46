import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { ManualClock } from '@socialpub/daemon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedRequests } from '../../cli/test/counted-requests';
import { data, httpClient, startTestDaemon, type TestDaemon } from './harness';

/**
 * Issue 35: MCP's waits follow the event stream (the daemon's hub in-process, GET /events
 * over stdio), so a wait of any length costs at most 3 counted requests. Counted as the
 * daemon counts them (its rate windows, every class, limits on; its clock a ManualClock).
 * The media source answers only when the test lets it, 3.5 s in: the 1-s polls of before
 * spent 5 or more in that time.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a0c9d4e10000000049454e44ae426082', 'hex');
const HOLD_MS = 3_500;

let t: TestDaemon;
let media: Server;
let origin: string;
beforeAll(async () => {
  t = await startTestDaemon({ rateLimits: true, mediaAllowPrivate: true, clock: new ManualClock(Date.UTC(2026, 11, 25, 10, 0, 30)) });
  media = createServer((_req, res) => {
    setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(PNG.length) }).end(PNG), HOLD_MS);
  });
  media.listen(0, '127.0.0.1');
  await once(media, 'listening');
  origin = `http://127.0.0.1:${(media.address() as AddressInfo).port}`;
});
afterAll(async () => {
  media?.close();
  await t?.stop();
});

const counted = (): number => countedRequests(t.dataDir);

/** media_status with wait: true on a task prepared just before; what it answered, its progress and what the wait cost. */
async function waitThrough(mcp: Client, photo: string) {
  const prepared = data<{ task_id: string }>(await mcp.callTool({ name: 'prepare_media', arguments: { urls: [`${origin}/${photo}`] } }));
  const before = counted();
  // Elapsed time, not a date: the wait must really have lasted while the source held its answer.
  const started = performance.now();
  const progress: Progress[] = [];
  const r = await mcp.callTool({ name: 'media_status', arguments: { task_id: prepared.task_id, wait: true } }, undefined, { onprogress: (p) => progress.push(p) });
  return { task: data<{ task: { status: string; files: unknown[] } }>(r).task, progress, cost: counted() - before, waited: performance.now() - started };
}

describe("MCP's media wait spends no one's budget", () => {
  it('over /mcp (the daemon’s event hub): 2 counted requests for a 3.5-s wait', async () => {
    const mcp = await httpClient(t.daemon.url, { Authorization: `Bearer ${t.key.api_key}` });
    try {
      const { task, progress, cost, waited } = await waitThrough(mcp, 'hub.png');
      expect(task.status).toBe('completed');
      expect(task.files).toHaveLength(1);
      expect(waited).toBeGreaterThan(HOLD_MS - 1_000);
      expect(progress[0]).toEqual({ progress: 0, total: 1, message: '0 of 1 files done' });
      // The status once following began, and once the task's end event came.
      expect(cost).toBe(2);
    } finally {
      await mcp.close();
    }
  }, 30_000);

  it('over stdio (`socialpub mcp`, GET /events): at most 3 counted requests for a 3.5-s wait', async () => {
    const bin = join(root, 'bin', 'socialpub');
    if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) throw new Error('run `scripts/pnpm build` before the tests (CI does)');
    const mcp = new Client({ name: 'socialpub-test', version: '1.0.0' });
    await mcp.connect(new StdioClientTransport({ command: bin, args: ['mcp'], env: { PATH: process.env.PATH ?? '', ...t.env } as Record<string, string>, stderr: 'pipe' }));
    try {
      const { task, cost, waited } = await waitThrough(mcp, 'stdio.png');
      expect(task.status).toBe('completed');
      expect(waited).toBeGreaterThan(HOLD_MS - 1_000);
      expect(cost).toBeLessThanOrEqual(3);
    } finally {
      await mcp.close();
    }
  }, 30_000);
});
