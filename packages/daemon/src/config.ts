import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mergeSandboxFaults, parseSandboxFaultsList, parseSandboxLatencyList, RATE_CLASSES, SandboxFaultsSchema, type RateClass, type SandboxFaults } from '@socialpub/core';
import { parsePublishConcurrency, publishConcurrencyPairs, type PublishConcurrency } from './publish-concurrency';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { PlatformsConfig } from './platforms/platform-module';
import { PLATFORMS as PLATFORM_MODULES } from './platforms/registry';
import type { SqliteSync } from './store/commits';
import { redactUrl } from './store/postgres/pg-database';
import type { LogLevel } from './util/logger';

/** The rate-limit classes: their names are core's (each route declaration names its own); the limits are here (DEFAULT_RATE_LIMITS). */
export { RATE_CLASSES, type RateClass } from '@socialpub/core';
const RATE_CLASS_SET = new Set<string>(RATE_CLASSES);

export interface RateLimit {
  /** Requests allowed per window. */
  limit: number;
  /** Window length in ms. */
  windowMs: number;
}

export interface RateLimitConfig {
  /** False lifts every limit (SOCIALPUB_RATE_LIMITS=off; for benchmarks). */
  enabled: boolean;
  classes: Record<RateClass, RateLimit>;
}

export interface DaemonConfig {
  /** Holds socialpub.db, secret.key and media/. */
  dataDir: string;
  /**
   * Where the database is: `<dataDir>/socialpub.db` (SQLite, the default), or the
   * PostgreSQL URL of `databaseUrl`; what openDatabase() takes.
   */
  dbPath: string;
  /** PostgreSQL (`postgres://…`; SOCIALPUB_DATABASE_URL, --database, `database_url`), or null for SQLite. */
  databaseUrl: string | null;
  secretKeyPath: string;
  mediaDir: string;
  /** Default 127.0.0.1. */
  host: string;
  /** Default 8787; 0 picks a free port. */
  port: number;
  /** The base URL platforms and clients reach this daemon at (prepared media URLs), or null. */
  publicUrl: string | null;
  /** Serve HTTPS from these PEM files. Required for a non-loopback host unless behindProxy. */
  tls: { certFile: string; keyFile: string } | null;
  /** A TLS-terminating proxy is in front: requests without X-Forwarded-Proto: https get 403 https_required. */
  behindProxy: boolean;
  /**
   * How many proxies in front append to X-Forwarded-For (default 1): the client address for
   * the failed-authentication limit is the entry that many from the end. Only behind a proxy.
   */
  trustedProxyHops: number;
  rateLimits: RateLimitConfig;
  /** Largest request body accepted (default 10 MB; not POST /media/upload, which has mediaMaxBytes). */
  maxBodyBytes: number;
  /** Media fetching may reach private, loopback, link-local and CGNAT addresses (a trusted LAN; tests). Default false. */
  mediaAllowPrivate: boolean;
  /** Size cap of a prepared or uploaded media file. Default (and most) 500 MB. */
  mediaMaxBytes: number;
  logLevel: LogLevel;
  /**
   * `full` (default): an accepted request is on disk before its 2xx leaves. `normal`: it is
   * committed but may be lost on power failure (SOCIALPUB_SQLITE_SYNC; docs/operations.md).
   */
  sqliteSync: SqliteSync;
  /** Webhook deliveries may go to private and loopback addresses over plain http (never metadata). Default false. */
  webhookAllowPrivate: boolean;
  /** How long events stay in the outbox (SSE resume, webhook redelivery). Default 7 days. */
  eventRetentionMs: number;
  /** How long figures of published posts are kept (SOCIALPUB_ANALYTICS_RETENTION_DAYS; default 400 days). */
  analyticsRetentionMs: number;
  /** Caps of targets in flight per connection, per platform and in all (SOCIALPUB_PUBLISH_CONCURRENCY; docs/scheduling.md). */
  publishConcurrency: PublishConcurrency;
  /**
   * Latency and faults every sandbox call meets, for all users (SOCIALPUB_SANDBOX_LATENCY_MS,
   * SOCIALPUB_SANDBOX_FAULTS over config.json's `sandbox_faults`; docs/platforms/simulators.md).
   * Absent: none.
   */
  sandboxFaults?: SandboxFaults;
  /** Platform settings, each platform's own (platforms/<platform>/settings.ts: SOCIALPUB_GRAPH_VERSION, SOCIALPUB_INSTAGRAM_MAX_HASHTAGS, SOCIALPUB_TIKTOK_*, SOCIALPUB_YOUTUBE_PRIVACY_STATUS, SOCIALPUB_LINKEDIN_VERSION). */
  platforms: PlatformsConfig;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The interface's limits for its classes (auth, publish, media, scheduled), and a limit
 * suited to each endpoint outside the interface: one class per resource (platforms,
 * settings, queue, series, events, webhooks, sandbox) at 600 a minute, so a page that
 * polls them all day, or a person clicking through them, never meets a 429; tighter ones
 * where a request makes the daemon call out (webhook tests and redeliveries, take-downs,
 * TikTok's creator info at TikTok's own 20 a minute) or work hard (validations, uploads).
 * Media status polls: 600 a minute like the reads, because clients are told to poll every
 * few seconds, a page may poll several tasks, and the interface gives them no class. Failed authentication: 30 per client address per 10 minutes.
 */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateClass, RateLimit>> = Object.freeze({
  auth: { limit: 10, windowMs: MINUTE },
  publish: { limit: 60, windowMs: HOUR },
  media: { limit: 30, windowMs: HOUR },
  scheduled: { limit: 100, windowMs: HOUR },
  media_status: { limit: 600, windowMs: MINUTE },
  validate: { limit: 600, windowMs: HOUR },
  review: { limit: 600, windowMs: HOUR },
  unpublish: { limit: 60, windowMs: HOUR },
  upload: { limit: 120, windowMs: HOUR },
  platforms: { limit: 600, windowMs: MINUTE },
  creator_info: { limit: 20, windowMs: MINUTE },
  settings: { limit: 600, windowMs: MINUTE },
  queue: { limit: 600, windowMs: MINUTE },
  series: { limit: 600, windowMs: MINUTE },
  events: { limit: 600, windowMs: MINUTE },
  webhooks: { limit: 600, windowMs: MINUTE },
  webhook_send: { limit: 60, windowMs: HOUR },
  sandbox: { limit: 600, windowMs: MINUTE },
  auth_failure: { limit: 30, windowMs: 10 * MINUTE },
  // The dashboard's account endpoints (API keys, connections, review links): generous, and apart from the scheduled-content class.
  account: { limit: 1200, windowMs: HOUR },
  // The inbox: reading and marking is cheap; refreshes and replies reach the networks, whose own budgets are tighter.
  inbox: { limit: 600, windowMs: MINUTE },
  inbox_reply: { limit: 120, windowMs: HOUR },
  // Figures: reads like the other reads; a refresh calls the networks (within their budgets), like a take-down.
  analytics: { limit: 600, windowMs: MINUTE },
  analytics_refresh: { limit: 60, windowMs: HOUR },
});

export const DEFAULT_PORT = 8787;
export const DEFAULT_HOST = '127.0.0.1';
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
export const MAX_MEDIA_BYTES = 500 * 1024 * 1024;
/** The daemon's optional config file in the data dir; flags and the environment win over it. */
export const CONFIG_FILE = 'config.json';

/** What a caller (the CLI's flags) may set; everything else comes from the environment or defaults. */
export interface ConfigInput {
  dataDir?: string;
  host?: string;
  port?: number;
  publicUrl?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: boolean;
  /** Default: SOCIALPUB_TRUSTED_PROXY_HOPS, else 1. */
  trustedProxyHops?: number;
  /** Per-class overrides, e.g. { publish: { limit: 600 } }. */
  rateLimits?: Partial<Record<RateClass, Partial<RateLimit>>>;
  rateLimitsEnabled?: boolean;
  logLevel?: LogLevel;
  sqliteSync?: SqliteSync;
  /** `postgres://…` (--database). */
  databaseUrl?: string;
  mediaAllowPrivate?: boolean;
  mediaMaxBytes?: number;
  webhookAllowPrivate?: boolean;
  eventRetentionMs?: number;
  analyticsRetentionMs?: number;
}

export const DEFAULT_EVENT_RETENTION_MS = 7 * 24 * HOUR;
/** Figures of published posts are kept 400 days by default: a year's comparisons and a little more. */
export const DEFAULT_ANALYTICS_RETENTION_DAYS = 400;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** The data dir: --data-dir, else $SOCIALPUB_HOME, else ~/.local/share/socialpub. */
export function resolveDataDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(flag ?? env.SOCIALPUB_HOME ?? join(homedir(), '.local', 'share', 'socialpub'));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);
export const isLoopback = (host: string) => LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);

/**
 * Parses SOCIALPUB_RATE_LIMITS: `off` lifts all limits; otherwise a comma list of
 * `class=limit[/window]` (window: 30s, 10m, 1h), e.g. `publish=600/1h,auth=100`.
 */
export function parseRateLimitsEnv(text: string | undefined): { enabled: boolean; overrides: Partial<Record<RateClass, Partial<RateLimit>>> } {
  const overrides: Partial<Record<RateClass, Partial<RateLimit>>> = {};
  if (text === undefined || text.trim() === '' || text.trim() === 'on') return { enabled: true, overrides };
  if (['off', 'false', '0', 'none'].includes(text.trim().toLowerCase())) return { enabled: false, overrides };
  for (const part of text.split(',')) {
    const m = /^\s*([a-z_]+)\s*=\s*(\d+)(?:\/(\d+)(s|m|h))?\s*$/.exec(part);
    if (m && !RATE_CLASS_SET.has(m[1] as string)) throw new ConfigError(`SOCIALPUB_RATE_LIMITS: no rate class "${m[1]}" (the classes: ${RATE_CLASSES.join(', ')})`);
    if (!m) throw new ConfigError(`SOCIALPUB_RATE_LIMITS: cannot read "${part.trim()}" (use off, or class=limit[/window] like publish=600/1h)`);
    const unit = { s: 1000, m: MINUTE, h: HOUR }[m[4] as 's' | 'm' | 'h'];
    overrides[m[1] as RateClass] = { limit: Number(m[2]), ...(m[3] ? { windowMs: Number(m[3]) * unit } : {}) };
  }
  return { enabled: true, overrides };
}

/** What `<data dir>/config.json` may hold (snake_case, like the API). */
export interface ConfigFile {
  public_url?: string;
  media_allow_private?: boolean;
  media_max_bytes?: number;
  /** `"off"`, or per class `{ "limit": 600, "window_seconds": 3600 }`. */
  rate_limits?: 'off' | Partial<Record<RateClass, { limit?: number; window_seconds?: number }>>;
  log_level?: LogLevel;
  sqlite_sync?: SqliteSync;
  /** `postgres://…`: the database is PostgreSQL (several daemons may share it; docs/scaling.md). */
  database_url?: string;
  webhook_allow_private?: boolean;
  /** Days events are kept in the outbox (default 7). */
  event_retention_days?: number;
  /** `{ "connection": 4, "platform": 256, "global": 1024, "twitter": 32 }`: caps of targets in flight. */
  publish_concurrency?: Record<string, number>;
  /** `{ "all": { "latency_ms": { "min": 200, "max": 400 } }, "twitter": { "rate_limited": 0.1 } }`: faults of every sandbox call (the API's shape). */
  sandbox_faults?: SandboxFaults;
}

const FILE_KEYS = new Set(['public_url', 'media_allow_private', 'media_max_bytes', 'rate_limits', 'log_level', 'sqlite_sync', 'database_url', 'webhook_allow_private', 'event_retention_days', 'publish_concurrency', 'sandbox_faults']);
const LOG_LEVELS = new Set<string>(['debug', 'info', 'warn', 'error', 'silent']);

/**
 * Reads `<dataDir>/config.json` ({} when absent). Unknown keys and wrong types are errors
 * naming the key, so a typo never silently leaves a setting at its default.
 */
export function readConfigFile(dataDir: string): ConfigFile {
  const path = join(dataDir, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${path} must hold a JSON object`);
  const o = raw as Record<string, unknown>;
  const bad = (key: string, want: string) => new ConfigError(`${path}: "${key}" must be ${want}`);
  for (const key of Object.keys(o)) {
    if (!FILE_KEYS.has(key)) throw new ConfigError(`${path}: unknown key "${key}" (known: ${[...FILE_KEYS].join(', ')})`);
  }
  if (o.public_url !== undefined && typeof o.public_url !== 'string') throw bad('public_url', 'a URL string');
  if (o.media_allow_private !== undefined && typeof o.media_allow_private !== 'boolean') throw bad('media_allow_private', 'true or false');
  if (o.media_max_bytes !== undefined && !(Number.isInteger(o.media_max_bytes) && (o.media_max_bytes as number) > 0)) throw bad('media_max_bytes', 'a positive whole number');
  if (o.webhook_allow_private !== undefined && typeof o.webhook_allow_private !== 'boolean') throw bad('webhook_allow_private', 'true or false');
  if (o.event_retention_days !== undefined && !(typeof o.event_retention_days === 'number' && o.event_retention_days > 0)) throw bad('event_retention_days', 'a positive number of days');
  if (o.log_level !== undefined && !LOG_LEVELS.has(o.log_level as string)) throw bad('log_level', [...LOG_LEVELS].join(', '));
  if (o.sqlite_sync !== undefined && o.sqlite_sync !== 'full' && o.sqlite_sync !== 'normal') throw bad('sqlite_sync', 'full or normal');
  if (o.database_url !== undefined && typeof o.database_url !== 'string') throw bad('database_url', 'a postgres:// URL');
  const pc = o.publish_concurrency;
  if (pc !== undefined) {
    if (!pc || typeof pc !== 'object' || Array.isArray(pc)) throw bad('publish_concurrency', 'an object like { "connection": 4, "platform": 256, "global": 1024 }');
    parsePublishConcurrency(Object.entries(pc), `${path}: publish_concurrency`, (m) => new ConfigError(m));
  }
  if (o.sandbox_faults !== undefined) {
    const faults = SandboxFaultsSchema.safeParse(o.sandbox_faults);
    if (!faults.success) throw bad('sandbox_faults', `faults like { "all": { "latency_ms": { "min": 200, "max": 400 } } } (${faults.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')})`);
  }
  const limits = o.rate_limits;
  if (limits !== undefined && limits !== 'off') {
    if (!limits || typeof limits !== 'object' || Array.isArray(limits)) throw bad('rate_limits', '"off" or an object of classes');
    for (const [cls, v] of Object.entries(limits as Record<string, unknown>)) {
      if (!RATE_CLASS_SET.has(cls)) throw bad(`rate_limits.${cls}`, `one of ${RATE_CLASSES.join(', ')}`);
      const l = v as { limit?: unknown; window_seconds?: unknown } | null;
      if (!l || typeof l !== 'object') throw bad(`rate_limits.${cls}`, 'an object like { "limit": 600, "window_seconds": 3600 }');
      if (l.limit !== undefined && !(Number.isInteger(l.limit) && (l.limit as number) >= 0)) throw bad(`rate_limits.${cls}.limit`, 'a whole number');
      if (l.window_seconds !== undefined && !(Number.isInteger(l.window_seconds) && (l.window_seconds as number) > 0)) {
        throw bad(`rate_limits.${cls}.window_seconds`, 'a positive whole number');
      }
    }
  }
  return o as ConfigFile;
}

const truthy = (v: string | undefined) => ['1', 'true', 'yes'].includes((v ?? '').trim().toLowerCase());

/**
 * Builds the daemon's configuration from flags, then the environment, then
 * `<data dir>/config.json`, then defaults; checks the transport rule.
 */
export function resolveConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): DaemonConfig {
  const dataDir = resolveDataDir(input.dataDir, env);
  const file = readConfigFile(dataDir);
  const host = input.host ?? env.SOCIALPUB_HOST ?? DEFAULT_HOST;
  const port = input.port ?? (env.SOCIALPUB_PORT ? Number(env.SOCIALPUB_PORT) : DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`port must be 0-65535, not ${port}`);
  const certFile = input.tlsCert ?? env.SOCIALPUB_TLS_CERT;
  const keyFile = input.tlsKey ?? env.SOCIALPUB_TLS_KEY;
  if ((certFile === undefined) !== (keyFile === undefined)) throw new ConfigError('TLS needs both a certificate and a key file');
  const behindProxy = input.behindProxy ?? ['1', 'true', 'yes'].includes((env.SOCIALPUB_BEHIND_PROXY ?? '').toLowerCase());
  const hopsRaw = input.trustedProxyHops ?? (env.SOCIALPUB_TRUSTED_PROXY_HOPS?.trim() ? Number(env.SOCIALPUB_TRUSTED_PROXY_HOPS) : 1);
  if (!Number.isInteger(hopsRaw) || hopsRaw < 1 || hopsRaw > 10) {
    throw new ConfigError(`SOCIALPUB_TRUSTED_PROXY_HOPS must be a whole number 1-10, not ${JSON.stringify(env.SOCIALPUB_TRUSTED_PROXY_HOPS ?? hopsRaw)}`);
  }
  const tls = certFile && keyFile ? { certFile: resolve(certFile), keyFile: resolve(keyFile) } : null;
  if (!isLoopback(host) && !tls && !behindProxy) {
    throw new ConfigError(
      `refusing to listen on ${host} without TLS: give a certificate and key (--tls-cert, --tls-key) or say a TLS proxy is in front (--behind-proxy)`,
    );
  }
  const publicRaw = input.publicUrl ?? env.SOCIALPUB_PUBLIC_URL ?? file.public_url ?? null;
  let publicUrl: string | null = null;
  if (publicRaw) {
    try {
      const u = new URL(publicRaw);
      if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
      publicUrl = u.href.replace(/\/+$/, '');
    } catch {
      throw new ConfigError(`public URL must be an http(s) URL, not ${publicRaw}`);
    }
  }
  const syncRaw = input.sqliteSync ?? env.SOCIALPUB_SQLITE_SYNC?.trim().toLowerCase() ?? file.sqlite_sync ?? 'full';
  if (syncRaw !== 'full' && syncRaw !== 'normal') throw new ConfigError(`SOCIALPUB_SQLITE_SYNC must be full or normal, not ${JSON.stringify(syncRaw)}`);
  const databaseUrl = resolveDatabaseUrl(input.databaseUrl ?? (env.SOCIALPUB_DATABASE_URL?.trim() || undefined) ?? file.database_url);
  const fromEnv = parseRateLimitsEnv(env.SOCIALPUB_RATE_LIMITS);
  const fileLimits = file.rate_limits === 'off' || file.rate_limits === undefined ? {} : file.rate_limits;
  const classes = {} as Record<RateClass, RateLimit>;
  for (const cls of Object.keys(DEFAULT_RATE_LIMITS) as RateClass[]) {
    const f = fileLimits[cls];
    const fromFile: Partial<RateLimit> = {
      ...(f?.limit !== undefined ? { limit: f.limit } : {}),
      ...(f?.window_seconds !== undefined ? { windowMs: f.window_seconds * 1000 } : {}),
    };
    classes[cls] = { ...DEFAULT_RATE_LIMITS[cls], ...fromFile, ...fromEnv.overrides[cls], ...input.rateLimits?.[cls] };
  }
  const envLimits = env.SOCIALPUB_RATE_LIMITS?.trim();
  const limitsEnabled = input.rateLimitsEnabled ?? (envLimits ? fromEnv.enabled : file.rate_limits !== 'off');
  const envPrivate = env.SOCIALPUB_MEDIA_ALLOW_PRIVATE?.trim();
  const mediaAllowPrivate = input.mediaAllowPrivate ?? (envPrivate ? truthy(envPrivate) : (file.media_allow_private ?? false));
  const mediaMaxBytes = input.mediaMaxBytes ?? file.media_max_bytes ?? MAX_MEDIA_BYTES;
  if (!Number.isInteger(mediaMaxBytes) || mediaMaxBytes <= 0 || mediaMaxBytes > MAX_MEDIA_BYTES) {
    throw new ConfigError(`the media size cap must be 1 to ${MAX_MEDIA_BYTES} bytes (500 MB), not ${mediaMaxBytes}`);
  }
  const envWebhookPrivate = env.SOCIALPUB_WEBHOOK_ALLOW_PRIVATE?.trim();
  const webhookAllowPrivate = input.webhookAllowPrivate ?? (envWebhookPrivate ? truthy(envWebhookPrivate) : (file.webhook_allow_private ?? false));
  const envRetention = env.SOCIALPUB_EVENT_RETENTION_DAYS?.trim();
  const retentionDays = envRetention ? Number(envRetention) : file.event_retention_days;
  if (retentionDays !== undefined && !(Number.isFinite(retentionDays) && retentionDays > 0)) {
    throw new ConfigError(`SOCIALPUB_EVENT_RETENTION_DAYS must be a positive number of days, not ${JSON.stringify(envRetention)}`);
  }
  const eventRetentionMs = input.eventRetentionMs ?? (retentionDays !== undefined ? Math.round(retentionDays * 24 * HOUR) : DEFAULT_EVENT_RETENTION_MS);
  const envAnalytics = env.SOCIALPUB_ANALYTICS_RETENTION_DAYS?.trim();
  const analyticsDays = envAnalytics ? Number(envAnalytics) : undefined;
  if (analyticsDays !== undefined && !(Number.isFinite(analyticsDays) && analyticsDays > 0)) {
    throw new ConfigError(`SOCIALPUB_ANALYTICS_RETENTION_DAYS must be a positive number of days, not ${JSON.stringify(envAnalytics)}`);
  }
  const analyticsRetentionMs = input.analyticsRetentionMs ?? Math.round((analyticsDays ?? DEFAULT_ANALYTICS_RETENTION_DAYS) * 24 * HOUR);
  const concurrencyError = (m: string) => new ConfigError(m);
  const fromFileConcurrency = parsePublishConcurrency(Object.entries(file.publish_concurrency ?? {}), 'publish_concurrency', concurrencyError);
  const envConcurrency = parsePublishConcurrency(
    publishConcurrencyPairs(env.SOCIALPUB_PUBLISH_CONCURRENCY ?? '', 'SOCIALPUB_PUBLISH_CONCURRENCY', concurrencyError),
    'SOCIALPUB_PUBLISH_CONCURRENCY',
    concurrencyError,
  );
  const publishConcurrency: PublishConcurrency = {
    ...fromFileConcurrency,
    ...envConcurrency,
    ...(fromFileConcurrency.platforms || envConcurrency.platforms ? { platforms: { ...fromFileConcurrency.platforms, ...envConcurrency.platforms } } : {}),
  };
  return {
    dataDir,
    dbPath: databaseUrl ?? join(dataDir, 'socialpub.db'),
    databaseUrl,
    secretKeyPath: join(dataDir, 'secret.key'),
    mediaDir: join(dataDir, 'media'),
    host,
    port,
    publicUrl,
    tls,
    behindProxy,
    trustedProxyHops: hopsRaw,
    rateLimits: { enabled: limitsEnabled, classes },
    maxBodyBytes: MAX_BODY_BYTES,
    mediaAllowPrivate,
    mediaMaxBytes,
    logLevel: input.logLevel ?? (env.SOCIALPUB_LOG_LEVEL as LogLevel | undefined) ?? file.log_level ?? 'info',
    sqliteSync: syncRaw,
    webhookAllowPrivate,
    eventRetentionMs,
    analyticsRetentionMs,
    publishConcurrency,
    platforms: { ...platformsFromEnv(env), urlsAllowPrivate: mediaAllowPrivate },
    sandboxFaults: sandboxFaultsFrom(file, env),
  };
}

/** config.json's `sandbox_faults`, with SOCIALPUB_SANDBOX_LATENCY_MS and then SOCIALPUB_SANDBOX_FAULTS laid over it. */
export function sandboxFaultsFrom(file: ConfigFile, env: NodeJS.ProcessEnv): SandboxFaults {
  const parse = (fn: () => SandboxFaults) => {
    try {
      return fn();
    } catch (e) {
      throw new ConfigError((e as Error).message);
    }
  };
  const latency = env.SOCIALPUB_SANDBOX_LATENCY_MS?.trim() ? parse(() => parseSandboxLatencyList(env.SOCIALPUB_SANDBOX_LATENCY_MS!)) : {};
  const faults = env.SOCIALPUB_SANDBOX_FAULTS?.trim() ? parse(() => parseSandboxFaultsList(env.SOCIALPUB_SANDBOX_FAULTS!)) : {};
  const merged = mergeSandboxFaults(mergeSandboxFaults(file.sandbox_faults ?? {}, latency), faults);
  const checked = SandboxFaultsSchema.safeParse(merged);
  if (!checked.success) throw new ConfigError(`sandbox faults: ${checked.error.issues.map((i) => i.message).join('; ')}`);
  return checked.data;
}

/** The platform settings the environment gives, as each platform's module reads them (its settings.ts); unset ones keep each platform's default. */
export function platformsFromEnv(env: NodeJS.ProcessEnv): PlatformsConfig {
  const read = (name: string) => env[name]?.trim() || undefined;
  const out: PlatformsConfig = {};
  for (const module of PLATFORM_MODULES) {
    try {
      Object.assign(out, module.settings?.(read));
    } catch (err) {
      throw new ConfigError((err as Error).message);
    }
  }
  return out;
}

/**
 * Records the database URL in the data dir's config.json (`up`/`daemon start --database`),
 * so every later command over that data dir (keys, connect, settings, a restart) uses it.
 * The file stays private (0600), as the URL may carry a password.
 */
export function rememberDatabaseUrl(dataDir: string, url: string): void {
  resolveDatabaseUrl(url);
  const path = join(dataDir, CONFIG_FILE);
  const current = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
  if (current.database_url === url) return;
  writeFileSync(path, `${JSON.stringify({ ...current, database_url: url }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(path, 0o600);
}

/** A PostgreSQL URL as given (checked), or null for SQLite's file. */
export function resolveDatabaseUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new ConfigError(`the database URL must be postgres://user:password@host:port/database, not ${JSON.stringify(redactUrl(raw))}`);
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') {
    throw new ConfigError(`the database URL must start with postgres:// (SQLite needs none: it is the default), not ${JSON.stringify(u.protocol)}`);
  }
  const schema = u.searchParams.get('schema');
  if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) throw new ConfigError(`the database URL's schema must be a lower-case SQL name, not ${JSON.stringify(schema)}`);
  return raw;
}
