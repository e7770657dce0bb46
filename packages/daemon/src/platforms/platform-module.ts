import type { Got } from 'got';
import type { Context, Hono } from 'hono';
import type { ApiVersion, Platform, PlatformInfo } from '@socialpub/core';
import type { ConnectIO } from '../oauth/connect-io';
import type { SandboxStore } from '../store/sandbox-store';
import type { ConnectionInfo, ConnectionInput } from '../store/connections';
import type { Clock } from '../util/clock';
import type { PlatformAdapter } from './adapter';
import type { CommentsClient } from './conversations';
import type { PostRemover } from './remove-post';
import type { PostAnalytics } from './post-analytics';
import type { TokenRefresher } from './shared/token-env';
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
  readonly refresher: TokenRefresher | null;
  /** Take-downs (POST /content/scheduled/unpublish): how the platform deletes a post, or why it cannot. */
  readonly deletion: Deletion;
  /**
   * The inbox (docs/api.md "Inbox"): how socialpub reads comments under a published post and
   * replies to one, or why the network offers no API for it (TikTok, Pinterest). Absent:
   * the network has an API socialpub does not call yet (GET /platforms says so).
   */
  readonly comments?: CommentsSupport;
  /** Figures of published posts (GET /analytics/posts; docs/reference/platforms.md §18): how the platform reads them; absent where socialpub does not read them yet. */
  analytics?(config: PlatformsConfig): PostAnalytics;
  /** The API version in use (GET /platforms), for platforms versioned by date (LinkedIn); absent for the others. */
  apiVersion?(config: PlatformsConfig, now: number): ApiVersion;
  /** What a sandbox connection keeps in its meta besides `sandbox: true` (Mastodon: the simulated server and its limits). */
  readonly sandboxMeta?: Record<string, unknown>;
  /** A sandbox connection's page and meta of its own (Facebook: a sandbox page; Pinterest: the simulated account's boards, the first chosen). */
  sandboxAccount?(suffix: string): { pageId: string; pageName: string; meta?: Record<string, unknown> };
  /** The platform's settings from the environment (its settings.ts); throws, naming the setting, on a value it cannot use. */
  settings?(read: SettingReader): Partial<PlatformsConfig>;
  /** What GET /platforms shows of a connection beyond the common fields, from its meta (Pinterest: its boards). */
  connectionFields?(meta: Record<string, unknown>): Record<string, unknown>;
}

/** Whether socialpub reads a network's comments (the inbox; GET /platforms `comments`). */
export type CommentsSupport = { supported: true; create(config: PlatformsConfig): CommentsClient } | { supported: false; reason: string };

/** Whether a platform's API deletes published posts (docs/reference/platforms.md §12). */
export type Deletion = { supported: true; createRemover(config: PlatformsConfig): PostRemover } | { supported: false; reason: string };

/**
 * Platform settings from the daemon's configuration (`DaemonConfig.platforms`). Each platform
 * adds its own keys in its folder's settings.ts (declaration merging) and reads them from the
 * environment through its module's `settings`.
 */
export interface PlatformsConfig {
  /**
   * Fetches of user-given URLs an adapter makes itself (Bluesky's link cards) may reach
   * private and loopback addresses: the daemon's media_allow_private, as for media. Default false.
   */
  urlsAllowPrivate?: boolean;
}

/** Reads one environment setting (trimmed; undefined when unset or empty). */
export type SettingReader = (name: string) => string | undefined;

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

/**
 * Options any live connect takes: the shared ones typed, and the platforms' own (their
 * descriptions' connect flags' `option`s: pageId, boardId, handle...) by name; each platform
 * reads the ones it knows.
 */
export interface ConnectOptions {
  /** The socialpub user the connection belongs to. */
  userId: string;
  /** The user's own app (--client-id / --client-secret), under both names platforms use. */
  appId?: string;
  appSecret?: string;
  clientId?: string;
  clientSecret?: string;
  /** The redirect URI registered in the app (--redirect-uri). */
  redirectUri?: string;
  /** A page-like choice made in advance (--page): the Facebook page, or another platform's equivalent. */
  pageId?: string;
  /** The account's label (--label): another account of the platform, or the one of that label reconnected; absent: the default account. */
  label?: string | null;
  [option: string]: unknown;
}

/** What a connect flow needs from the daemon. */
export interface ConnectDeps {
  connections: {
    /** Saves the account; `label` null or absent: the label the connect was asked for (connectLive), else the default account. */
    save(userId: string, platform: Platform, input: ConnectionInput, label?: string | null): ConnectionInfo;
    /** The user's accounts, for the labels of a connect that makes several (platforms/shared/choice-labels.ts); absent: none known. */
    listForUser?(userId: string): readonly ConnectionInfo[];
  };
  clock?: Clock;
  /** Host -> base URL; default `https://<host>` (tests point it at the simulator). */
  baseUrl?: (host: string) => string;
  http?: Got;
  /** The daemon's platform settings (config.ts reads them: DaemonConfig.platforms); connectLive's default: config.ts's platformsFromEnv. */
  platforms?: PlatformsConfig;
  /** The apps registered per server (a Mastodon server's), kept for the next connect there. */
  oauthApps?: { get(platform: string, origin: string): OAuthApp | null; save(platform: string, origin: string, app: OAuthApp): void };
}

export type Connector = (options: ConnectOptions, io: ConnectIO, deps: ConnectDeps) => Promise<ConnectionInfo>;
