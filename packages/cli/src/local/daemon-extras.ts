/**
 * Daemon functions the CLI's local admin needs that the daemon's index does not export
 * (yet): reached by path inside the workspace, bundled into the CLI by tsup like the rest
 * of the daemon. When the index exports them, this file becomes one re-export.
 */
export { listSandboxPosts, type SandboxPost } from '../../../daemon/src/platforms/sandbox';
export { connectLive as connectLivePlatform, type ConnectIO, type ConnectOptions } from '../../../daemon/src/connect/index';
