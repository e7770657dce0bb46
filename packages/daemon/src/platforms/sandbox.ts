import { Hono } from 'hono';
import { formatInstant, type Platform, type SandboxPost as SandboxPostView } from '@socialpub/core';
import type { DB } from '../store/database';
import type { SandboxDeps } from './platform-module';
import { simulators } from './registry';
import { sandboxCaller } from './shared/sim/sandbox-caller';
import type { SimulatedPost } from './shared/sim/sandbox-post-sink';

/**
 * One app mounting every simulator under `/<host>`, e.g. `/graph.facebook.com/v25.0/...`.
 * The daemon mounts it at `/sandbox`, so a sandbox connection's `ctx.baseUrl(host)` is
 * `<daemon url>/sandbox/<host>`.
 */
export function createSandboxApp(deps: SandboxDeps, factories = simulators()): Hono {
  return createSandbox(deps, factories).app;
}

/** The sandbox app and every host its simulators answer for (each also served at its own origin, sandbox-origins.ts). */
export function createSandbox(deps: SandboxDeps, factories = simulators()): { app: Hono; hosts: string[] } {
  const app = new Hono();
  // Posts are recorded with the account key of the connection whose token made them.
  app.use('*', sandboxCaller());
  const hosts: string[] = [];
  for (const make of factories) {
    const sim = make(deps);
    app.route('/', sim.app);
    hosts.push(...sim.hosts);
  }
  return { app, hosts };
}

/** Where `socialpub sandbox endpoints` finds the simulators' own origins (settings, scope global). */
export const SANDBOX_ENDPOINTS_KEY = 'sandbox_endpoints';

/** Where it finds their https origins (self-signed, see sandbox-tls.ts). */
export const SANDBOX_HTTPS_ENDPOINTS_KEY = 'sandbox_endpoints_https';

/** Host -> own origin of each simulated host, as the daemon's last start served them (empty before any). */
export function readSandboxEndpoints(db: DB): Record<string, string> {
  return readEndpoints(db, SANDBOX_ENDPOINTS_KEY);
}

/** Host -> https origin of each simulated host (the daemon's last start), clients trusting `sandboxCertFile(dataDir)`. */
export function readSandboxHttpsEndpoints(db: DB): Record<string, string> {
  return readEndpoints(db, SANDBOX_HTTPS_ENDPOINTS_KEY);
}

function readEndpoints(db: DB, key: string): Record<string, string> {
  const row = db.prepare<[string, string], { value: string }>('SELECT value FROM settings WHERE scope = ? AND key = ?').get('global', key);
  return row ? (JSON.parse(row.value) as Record<string, string>) : {};
}


/** `<daemon url>/sandbox/<host>`: the base URL adapters use for a sandbox connection. */
export function sandboxBaseUrl(daemonUrl: string, host: string): string {
  return `${daemonUrl.replace(/\/+$/, '')}/sandbox/${host}`;
}

/** A sandbox connection as the simulators know it: its platform and the account key of its tokens. */
export interface SandboxAccount {
  platform: Platform;
  accountKey: string;
}

/** A stored simulated post, with its row id. */
export interface SandboxPost extends SimulatedPost {
  id: number;
}

interface SandboxPostRow {
  id: number;
  platform: Platform;
  account_id: string | null;
  post_id: string;
  post_url: string | null;
  kind: string;
  body: string;
  created_at: number;
  removed_at: number | null;
}

/**
 * What the simulators received, oldest first (for `socialpub sandbox posts [--platform P]`).
 * `latest`: the most recent `limit` posts (still oldest first) instead of the first ones.
 */
export function listSandboxPosts(db: DB, filter: { platform?: Platform; limit?: number; latest?: boolean; accounts?: readonly SandboxAccount[] } = {}): SandboxPost[] {
  const limit = Math.max(1, Math.min(filter.limit ?? 1000, 100_000));
  const order = filter.latest ? 'created_at DESC, id DESC' : 'created_at, id';
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (filter.platform) {
    where.push('platform = ?');
    params.push(filter.platform);
  }
  if (filter.accounts) {
    // Only the posts these sandbox connections made (none when there are none).
    const pairs = filter.accounts.map(() => '(platform = ? AND account_key = ?)');
    where.push(pairs.length > 0 ? `(${pairs.join(' OR ')})` : '0');
    for (const a of filter.accounts) params.push(a.platform, a.accountKey);
  }
  const selected = db
    .prepare<(string | number)[], SandboxPostRow>(`SELECT * FROM sandbox_posts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`)
    .all(...params, limit);
  const rows = filter.latest ? selected.reverse() : selected;
  return rows.map((r) => ({
    id: r.id,
    platform: r.platform,
    accountId: r.account_id,
    postId: r.post_id,
    postUrl: r.post_url,
    kind: r.kind,
    body: JSON.parse(r.body) as Record<string, unknown>,
    createdAt: r.created_at,
    removedAt: r.removed_at,
  }));
}

/** A stored simulated post as the API and `socialpub sandbox posts --json` show it. */
export function presentSandboxPost(p: SandboxPost): SandboxPostView {
  return {
    platform: p.platform,
    kind: p.kind,
    post_id: p.postId,
    post_url: p.postUrl,
    account_id: p.accountId,
    created_at: formatInstant(p.createdAt),
    body: p.body,
    removed_at: p.removedAt ? formatInstant(p.removedAt) : null,
  };
}
