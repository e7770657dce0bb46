export { startDaemon, type DaemonHandle, type StartOptions } from './daemon';
export {
  resolveConfig,
  resolveDataDir,
  readConfigFile,
  rememberDatabaseUrl,
  parseRateLimitsEnv,
  CONFIG_FILE,
  ConfigError,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_RATE_LIMITS,
  type ConfigInput,
  type ConfigFile,
  type DaemonConfig,
  type RateClass,
  type RateLimit,
} from './config';
export { createApp, type AppDeps } from './http/app';
export { createServices, type ServiceParts } from './compose';
export type { AppServices } from './http/deps';
export type { AppEnv, AppVariables } from './http/env';
export { ApiError } from './http/errors';
export { openAdmin, adminDatabase, AdminError, DEFAULT_EMAIL, type Admin, type CreatedKey, type KeyListing, type ConnectionListing, type UserSettings } from './admin/index';
export { migrateToPostgres, type MigrateToPostgresOptions, type MigrateToPostgresReport } from './admin/index';
export type { CopiedTable, CopyReport, AdvancedSequence } from './store/copy-database';
export { openDatabase, type DB } from './store/database';
export { useSqliteDriver, type SqliteDriver } from './store/sqlite-driver';
export { createStore, type Store } from './store/store';
export { createLogger, silentLogger, redact, type RootLogger, type LogLevel } from './util/logger';
export { ManualClock, systemClock, type Clock } from './util/clock';
export { presentSandboxPost, sandboxLabels, readSandboxEndpoints, readSandboxHttpsEndpoints, type SandboxPost } from './platforms/sandbox';
export { sandboxCertFile } from './platforms/sandbox-tls';
export { openSandboxReader, sandboxDbPath } from './store/sandbox-database';
export { serveSandbox, type ServedSandbox, type ServeSandboxOptions } from './platforms/sandbox/serve-sandbox';
export { SANDBOX_CHILD_ENV, SANDBOX_FAULTS_ENV, type SelfCommand } from './platforms/sandbox/sandbox-process';
export { connectLive, type ConnectIO, type ConnectOptions } from './connect/index';
// A platform registered from outside (core's registerPlatform, then its module here): docs/platforms/adding-a-platform.md.
export { registerPlatformModule } from './platforms/registry';
export type { PlatformModule, SimulatorFactory, Simulator, SandboxDeps, Connector } from './platforms/platform-module';
export type { PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult, ValidationInput } from './platforms/adapter';
export { isPostgresUrl } from './store/postgres/pg-database';
