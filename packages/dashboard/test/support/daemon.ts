import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { openAdmin, type Clock } from '@socialpub/daemon';
import { SocialPub } from '@socialpub/sdk';
import type { Page } from 'playwright-core';
import { startTestDaemon } from '../../../cli/test/daemon-harness';
import { ensureDashboardBuilt } from './build';
import { testClock } from './test-time';

/**
 * A real daemon (the CLI tests' harness: 127.0.0.1, port 0, a temp data dir, a key) serving
 * the built dashboard, with the helpers the browser tests need. Its clock is the tests'
 * (support/test-time.ts) unless a test brings its own.
 */
export async function startDashboardDaemon(opts: { connect?: string[]; zone?: string; agentApproval?: boolean; clock?: Clock; webhookAllowPrivate?: boolean } = {}) {
  await ensureDashboardBuilt();
  const t = await startTestDaemon({ mediaAllowPrivate: true, webhookAllowPrivate: opts.webhookAllowPrivate ?? false, clock: opts.clock ?? testClock });
  const admin = openAdmin(t.dataDir);
  try {
    for (const p of opts.connect ?? []) admin.addSandboxConnection(p, { email: t.key.email });
    if (opts.zone) admin.setTimezone(t.key.email, opts.zone);
    if (opts.agentApproval !== undefined) admin.setAgentApproval(t.key.email, opts.agentApproval);
  } finally {
    admin.close();
  }
  const sdk = new SocialPub({ baseUrl: t.daemon.url, apiKey: t.key.api_key, maxRetries: 0 });
  return {
    ...t,
    url: t.daemon.url,
    sdk,
    /** A one-time sign-in link, made as `socialpub dashboard` makes it (the admin API on the data dir). */
    signinLink(): string {
      const a = openAdmin(t.dataDir);
      try {
        return `${t.daemon.url}/auth/link/${a.createSigninLink({ email: t.key.email }).token}`;
      } finally {
        a.close();
      }
    },
    /** Signs the page's context in through a fresh one-time link and waits for the app. */
    async signIn(page: Page): Promise<void> {
      await page.goto(this.signinLink());
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
    /** The official MCP client, as an agent connects, over Streamable HTTP with the key. */
    async mcp(): Promise<Client> {
      const client = new Client({ name: 'dashboard-e2e-agent', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${t.daemon.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${t.key.api_key}` } } }));
      return client;
    },
  };
}

export type DashboardDaemon = Awaited<ReturnType<typeof startDashboardDaemon>>;
