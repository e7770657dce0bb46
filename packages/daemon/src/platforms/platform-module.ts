import type { Got } from 'got';
import type { Context, Hono } from 'hono';
import type { ApiVersion, Platform, PlatformInfo } from '@socialpub/core';
import type { ConnectIO } from '../oauth/connect-io';
import type { SandboxStore } from '../store/sandbox-store';
import type { ConnectionInfo, ConnectionInput } from '../store/connections';
import type { Credentials, TokenUpdate } from '../store/credentials';
import type { Clock } from '../util/clock';
import type { PlatformAdapter } from './adapter';
import type { PostRemover } from './remove-post';
import type { MetaConnectOptions } from './meta/connect';
import type { OAuthApp } from '../store/oauth-apps';

/**
 * Everything the daemon knows about one platform, exported by its folder
 * (`platforms/<platform>/index.ts`) and listed once in `platforms/registry.ts`.
 */
export interface PlatformModule {
  readonly platform: Platform;
  /** The core table's entry: content types, caption and media limits. */
  readonly limits: PlatformInfo;
  /** The publishing adapter; its `validate()` holds the platform's rules beyond the core table. */
  createAdapter(config: PlatformsConfig): PlatformAdapter;
  /** The simulator sandbox connections talk to (Meta's three platforms share one). */
  readonly simulator: SimulatorFactory;
  /** `socialpub connect <platform>` (live): the platform's OAuth flow. */
  readonly connect: Connector;
  /** Keeps live tokens fresh in the background; null when the platform's tokens need no refresh. */
  readonly refresher: Refresher | null;
  /** Take-downs (POST /content/scheduled/unpublish): how the platform deletes a post, or why it cannot. */
  readonly deletion: Deletion;
  /** The API version in use (GET /platforms), for platforms versioned by date (LinkedIn); absent for the others. */
  apiVersion?(config: PlatformsConfig, now: number): ApiVersion;
  /** What a sandbox connection keeps in its meta besides `sandbox: true` (Mastodon: the simulated server and its limits). */
  readonly sandboxMeta?: Record<string, unknown>;
}

/** Whether a platform's API deletes published posts (docs/reference/platforms.md §12). */
export type Deletion = { supported: true; createRemover(config: PlatformsConfig): PostRemover } | { supported: false; reason: string };

/** Platform settings from the daemon's configuration (`DaemonConfig.platforms`). */
export interface PlatformsConfig {
  /** Graph API version for the Meta platforms (default v25.0). */
  graphVersion?: string;
  /** Instagram hashtags per caption (default 5). */
  instagramMaxHashtags?: number;
  /** TikTok privacy level for connections whose meta sets none. */
  tiktokPrivacyLevel?: string;
  /** Whether the TikTok app passed TikTok's audit (unaudited apps may only post SELF_ONLY). */
  tiktokAudited?: boolean;
  /** YouTube privacy status for connections whose meta sets none (default public). */
  youtubePrivacyStatus?: string;
  /** Pins LinkedIn's API version (`YYYYMM`, SOCIALPUB_LINKEDIN_VERSION); default: worked out from the date, stepping forward when LinkedIn retires it. */
  linkedinVersion?: string;
}

/** What every simulator factory receives. */
export interface SandboxDeps {
  /** The simulators' store (state, sandbox_posts, so `socialpub sandbox posts` lists them across restarts); null: memory only. */
  store: SandboxStore | null;
  clock: Clock;
}

/** A simulator: a Hono app answering `/<host>/...` for each of its hosts. */
export interface Simulator {
  hosts: readonly string[];
  app: Hono;
  /**
   * The platform's own "too many requests" answer (status, body, rate-limit headers), which
   * the sandbox's `rate_limited` fault answers with (docs/platforms/simulators.md), at `now`
   * (the simulators' clock, epoch ms). Absent:
   * a bare 429 with `Retry-After: 60`.
   */
  rateLimited?: (c: Context, now: number) => Response;
}

export type SimulatorFactory = (deps: SandboxDeps) => Simulator;

/** Options any live connect takes; each platform reads the ones it knows. */
export type ConnectOptions = MetaConnectOptions & Record<string, unknown>;

/** What a connect flow needs from the daemon. */
export interface ConnectDeps {
  connections: { save(userId: string, platform: Platform, input: ConnectionInput): ConnectionInfo };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
  /** The apps registered per server (a Mastodon server's), kept for the next connect there. */
  oauthApps?: { get(platform: string, origin: string): OAuthApp | null; save(platform: string, origin: string, app: OAuthApp): void };
}

export type Connector = (options: ConnectOptions, io: ConnectIO, deps: ConnectDeps) => Promise<ConnectionInfo>;

/** A platform's way of refreshing a connection's token ahead of expiry. */
export interface Refresher {
  platform: Platform;
  /** Whether this connection's tokens can be refreshed this way (e.g. Instagram Login, not Facebook Login). */
  applies(credentials: Credentials): boolean;
  /** The platform refuses a refresh of a younger token (Instagram and Threads: 24 h). */
  minAgeMs: number;
  /** Returns the new tokens; throws on failure. */
  refresh(credentials: Credentials, deps: { baseUrl(host: string): string; signal: AbortSignal; clock: Clock }): Promise<TokenUpdate>;
  /** A failure that does not mean the grant is gone (network, 5xx): retry later, keep the connection. */
  isTransient(err: unknown): boolean;
}
