/**
 * Daemon functions the CLI's local admin needs, in a module of their own so that the
 * commands using them load the daemon lazily (start-up stays fast).
 */
export { presentSandboxPost, sandboxLabels, readSandboxEndpoints, readSandboxHttpsEndpoints, sandboxCertFile, connectLive as connectLivePlatform, type SandboxPost, type ConnectIO, type ConnectOptions } from '@socialpub/daemon';
export { adminDatabase, openSandboxReader, sandboxDbPath } from '@socialpub/daemon';
export { serveSandbox, resolveConfig, createLogger, SANDBOX_CHILD_ENV, SANDBOX_FAULTS_ENV } from '@socialpub/daemon';
