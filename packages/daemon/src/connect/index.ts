import type { Platform } from '@socialpub/core';
import type { ConnectionInfo, ConnectionInput } from '../store/connections';
import type { ConnectDeps, ConnectOptions } from '../platforms/platform-module';
import { platformsFromEnv } from '../config';
import { platformModule } from '../platforms/registry';
import { ConnectError } from '../oauth/connect-error';
import type { ConnectIO } from '../oauth/connect-io';

export { authorizeByPaste } from '../oauth/paste-oauth';
export { isLoopbackRedirect, runLoopbackOAuth, OAuthFlowError, type AuthorizeParams, type LoopbackOAuthOptions, type LoopbackOAuthResult } from '../oauth/loopback-oauth';
export { ConnectError } from '../oauth/connect-error';
export type { ConnectIO } from '../oauth/connect-io';
export type { ConnectDeps, ConnectOptions } from '../platforms/platform-module';
export { TokenRefreshLoop, type RefreshReport, type TokenRefreshLoopOptions } from './token-refresh-loop';

/** `socialpub connect <platform>` (live): runs the platform's OAuth flow and stores the connection. */
export async function connectLive(platform: Platform, options: ConnectOptions, io: ConnectIO, deps: ConnectDeps): Promise<ConnectionInfo> {
  const connect = platformModule(platform)?.connect;
  if (!connect) throw new ConnectError(`Connecting ${platform} live is not available`);
  // Platform settings as config.ts reads them for the daemon (LinkedIn's pinned API version, say), not each platform from the environment itself.
  // The label (--label) reaches every save of the flow the platform module makes without one;
  // a connect that makes several accounts (several pages chosen) names the others' labels itself.
  const label = options.label ?? null;
  const list = deps.connections.listForUser?.bind(deps.connections);
  const connections = {
    save: (userId: string, p: Platform, input: ConnectionInput, own?: string | null) => deps.connections.save(userId, p, input, own ?? label),
    ...(list ? { listForUser: list } : {}),
  };
  return connect(options, io, { ...deps, connections, platforms: deps.platforms ?? platformsFromEnv(process.env) });
}
