import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openAdmin } from '@socialpub/daemon';
import { expect, vi } from 'vitest';
import { startTestDaemon } from '../../cli/test/daemon-harness';

export { startTestDaemon };
export type TestDaemon = Awaited<ReturnType<typeof startTestDaemon>>;

/** An MCP client (the SDK's own) over Streamable HTTP to the daemon's /mcp. */
export async function httpClient(url: string, headers: Record<string, string>, query = ''): Promise<Client> {
  const client = new Client({ name: 'socialpub-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp${query}`), { requestInit: { headers } }));
  return client;
}

/** The structured content of a tool result (typed for the test's reading). */
export function data<T>(result: unknown): T {
  return (result as CallToolResult).structuredContent as T;
}

export function text(result: unknown): string {
  return (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}

/** The error a tool reported (its JSON text block). */
export function toolErrorOf(result: unknown): ToolErrorContent['error'] {
  const r = result as CallToolResult;
  if (!r.isError) throw new Error(`expected a tool error, got ${JSON.stringify(r)}`);
  const block = r.content[1];
  if (block?.type !== 'text') throw new Error('the tool error has no JSON block');
  return (JSON.parse(block.text) as ToolErrorContent).error;
}

export interface ToolErrorContent {
  error: { code: string; message: string; details: { path: string; message: string; platform?: string }[]; next_step: string; status?: number; retry_after?: number };
}

export function setAgentApproval(t: TestDaemon, on: boolean): void {
  const admin = openAdmin(t.dataDir);
  try {
    admin.setAgentApproval(t.key.email, on);
  } finally {
    admin.close();
  }
}

/** Every tool the server offers, in the order it lists them (upload_file only over stdio). */
export const HTTP_TOOLS = [
  'whoami',
  'list_platforms',
  'validate_post',
  'publish_post',
  'list_posts',
  'get_post',
  'retime_post',
  'cancel_post',
  'approve_post',
  'reject_post',
  'request_changes',
  'comment_on_post',
  'unpublish_post',
  'get_post_metrics',
  'refresh_post_metrics',
  'get_analytics_summary',
  'export_analytics_csv',
  'prepare_media',
  'media_status',
  'list_sandbox_posts',
  'list_connections',
  'update_connection',
  'list_inbox',
  'reply_to_comment',
];

export interface TestPost {
  job_id: string;
  status: string;
  source: string;
  scheduled_for: string | null;
  targets: { platform: string; status: string; scheduled_for: string; post_url: string | null }[];
}

/** Polls get_post until the job is published (the daemon's publisher works on real I/O), and returns it. */
export function publishedPost(mcp: Client, jobId: string): Promise<TestPost> {
  return vi.waitFor(
    async () => {
      const post = data<{ post: TestPost }>(await mcp.callTool({ name: 'get_post', arguments: { job_id: jobId } })).post;
      expect(post.status).toBe('published');
      return post;
    },
    { timeout: 15_000, interval: 50 },
  );
}
