import { Hono } from 'hono';
import { formatInstant, type Platform, type SandboxFaults, type SandboxPost as SandboxPostView } from '@socialpub/core';
import type { StoredSandboxPost } from '../store/sandbox-store';
import type { SettingsRepository } from '../store/settings';
import type { SandboxDeps } from './platform-module';
import { simulatedPlatforms, simulators } from './registry';
import { faultStage, type AppliedFault, type StagedHost } from './sandbox/fault-stage';
import { sandboxCaller } from './shared/sim/sandbox-caller';
import { catchUpOnSharedState } from './shared/sim/sim-state';

/**
 * One app mounting every simulator under `/<host>`, e.g. `/graph.facebook.com/v25.0/...`.
 * The daemon mounts it at `/sandbox`, so a sandbox connection's `ctx.baseUrl(host)` is
 * `<daemon url>/sandbox/<host>`.
 */
export function createSandboxApp(deps: SandboxDeps, factories = simulators(), options: SandboxStageOptions = {}): Hono {
  return createSandbox(deps, factories, options).app;
}

/** The faults the sandbox applies (sandbox/fault-stage.ts); without them it answers like a platform on a perfect day. */
export interface SandboxStageOptions {
  /** Faults for every user (SOCIALPUB_SANDBOX_*, config.json); the users' own are read from `deps.store`. Default none. */
  faults?: () => SandboxFaults;
  /** Default Math.random. */
  random?: () => number;
  /** Told of every fault applied (the daemon logs them). */
  onFault?: (fault: AppliedFault) => void;
}

/** The sandbox app and every host its simulators answer for (each also served at its own origin, sandbox-origins.ts). */
export function createSandbox(deps: SandboxDeps, factories = simulators(), options: SandboxStageOptions = {}): { app: Hono; hosts: string[] } {
  const app = new Hono();
  // Several daemons over one PostgreSQL database: what the others' simulators wrote first.
  app.use('*', catchUpOnSharedState(deps.store));
  // Posts are recorded with the account key of the connection whose token made them.
  app.use('*', sandboxCaller());
  const hosts: string[] = [];
  const staged = new Map<string, StagedHost>();
  // Every call meets the stage first: faults set by the users and for all (a no-op when none are set).
  app.use('*', faultStage({ store: deps.store, now: () => deps.clock.now(), hosts: staged, global: options.faults ?? (() => ({})), ...(options.random ? { random: options.random } : {}), ...(options.onFault ? { onFault: options.onFault } : {}) }));
  for (const make of factories) {
    const sim = make(deps);
    app.route('/', sim.app);
    hosts.push(...sim.hosts);
    const platforms = simulatedPlatforms(make);
    for (const host of sim.hosts) staged.set(host, { platforms, rateLimited: sim.rateLimited });
  }
  return { app, hosts };
}

/** Where `socialpub sandbox endpoints` finds the simulators' own origins (settings, scope global). */
export const SANDBOX_ENDPOINTS_KEY = 'sandbox_endpoints';

/** Where it finds their https origins (self-signed, see sandbox-tls.ts). */
export const SANDBOX_HTTPS_ENDPOINTS_KEY = 'sandbox_endpoints_https';

/** Host -> own origin of each simulated host, as the daemon's last start served them (empty before any). */
export function readSandboxEndpoints(settings: Pick<SettingsRepository, 'get'>): Record<string, string> {
  return settings.get<Record<string, string>>('global', SANDBOX_ENDPOINTS_KEY) ?? {};
}

/** Host -> https origin of each simulated host (the daemon's last start), clients trusting `sandboxCertFile(dataDir)`. */
export function readSandboxHttpsEndpoints(settings: Pick<SettingsRepository, 'get'>): Record<string, string> {
  return settings.get<Record<string, string>>('global', SANDBOX_HTTPS_ENDPOINTS_KEY) ?? {};
}

/** `<daemon url>/sandbox/<host>`: the base URL adapters use for a sandbox connection. */
export function sandboxBaseUrl(daemonUrl: string, host: string): string {
  return `${daemonUrl.replace(/\/+$/, '')}/sandbox/${host}`;
}

/** A stored simulated post, with its row id (store.sandbox.posts.list() lists them). */
export type SandboxPost = StoredSandboxPost;

/** The account id a sandbox connection gets (connect/sandbox-connection.ts), from the account part of its tokens (sandboxAccountKey). */
export function sandboxAccountId(platform: Platform, accountKey: string): string {
  return `sandbox_${platform}_${accountKey}`;
}

/** A connection as sandboxLabels reads it. */
type LabelledConnection = { platform: Platform; mode: string; accountId: string | null; label: string };

/**
 * The label of the sandbox connection that made a post, from the connections given (a
 * user's for the API, every user's for the machine owner's `socialpub sandbox posts`);
 * null when none of them made it (the simulator's test tokens, a removed connection).
 */
export function sandboxLabels(connections: readonly LabelledConnection[]): (post: Pick<SandboxPost, 'platform' | 'accountKey'>) => string | null {
  const byId = new Map(connections.filter((c) => c.mode === 'sandbox' && c.accountId).map((c) => [c.accountId as string, c.label]));
  return (post) => (post.accountKey === null ? null : (byId.get(sandboxAccountId(post.platform, post.accountKey)) ?? null));
}

/** A stored simulated post as the API and `socialpub sandbox posts --json` show it; `labelOf` names the account that made it (sandboxLabels). */
export function presentSandboxPost(p: SandboxPost, labelOf: (post: SandboxPost) => string | null = () => null): SandboxPostView {
  return {
    platform: p.platform,
    kind: p.kind,
    post_id: p.postId,
    post_url: p.postUrl,
    account_id: p.accountId,
    created_at: formatInstant(p.createdAt),
    body: p.body,
    removed_at: p.removedAt ? formatInstant(p.removedAt) : null,
    label: labelOf(p),
  };
}
