import type { Platform } from '@socialpub/core';
import type { ConnectionInfo } from '../store/connections';
import { ConnectError } from './connect-error';
import type { ConnectIO } from './connect-io';
import { connectMeta, type MetaConnectDeps, type MetaConnectOptions } from './meta-connect';
import { connectTiktok, type TiktokConnectOptions } from '../platforms/tiktok/connect';
import { connectTwitter, type TwitterConnectOptions } from '../platforms/twitter/connect';
import { connectYoutube, type YoutubeConnectOptions } from '../platforms/youtube/connect';

export { authorizeByPaste } from './paste-oauth';
export { isLoopbackRedirect, runLoopbackOAuth, OAuthFlowError, type AuthorizeParams, type LoopbackOAuthOptions, type LoopbackOAuthResult } from './loopback-oauth';
export { ConnectError } from './connect-error';
export type { ConnectIO } from './connect-io';
export { connectMeta, type MetaConnectDeps, type MetaConnectOptions, type MetaPlatform } from './meta-connect';
export { TokenRefresher, registerRefresher, REFRESHERS, type Refresher, type RefreshReport, type TokenRefresherOptions } from './token-refresher';
export { connectTwitter, type TwitterConnectOptions } from '../platforms/twitter/connect';
export { connectTiktok, type TiktokConnectOptions } from '../platforms/tiktok/connect';
export { connectYoutube, type YoutubeConnectOptions } from '../platforms/youtube/connect';

/** Options any live connect takes; each platform reads the ones it knows. */
export type ConnectOptions = MetaConnectOptions & Record<string, unknown>;
export type ConnectDeps = MetaConnectDeps & { connections: { save(userId: string, platform: Platform, input: Parameters<MetaConnectDeps['connections']['save']>[2]): ConnectionInfo } };

type Connector = (options: ConnectOptions, io: ConnectIO, deps: ConnectDeps) => Promise<ConnectionInfo>;

/** Live connect flows by platform. X, TikTok and YouTube add theirs here. */
export const CONNECTORS: Partial<Record<Platform, Connector>> = {
  instagram: (o, io, d) => connectMeta('instagram', o, io, d),
  facebook: (o, io, d) => connectMeta('facebook', o, io, d),
  threads: (o, io, d) => connectMeta('threads', o, io, d),
  // X, TikTok and Google take the user's client id/secret as --app-id/--app-secret too.
  twitter: (o, io, d) => connectTwitter({ ...(o as unknown as TwitterConnectOptions), clientId: (o.clientId as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, d),
  tiktok: (o, io, d) => connectTiktok({ ...(o as unknown as TiktokConnectOptions), clientKey: (o.clientKey as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, d),
  youtube: (o, io, d) => connectYoutube({ ...(o as unknown as YoutubeConnectOptions), clientId: (o.clientId as string | undefined) ?? o.appId, clientSecret: (o.clientSecret as string | undefined) ?? o.appSecret }, io, d),
};

/** `socialpub connect <platform>` (live): runs the platform's OAuth flow and stores the connection. */
export async function connectLive(platform: Platform, options: ConnectOptions, io: ConnectIO, deps: ConnectDeps): Promise<ConnectionInfo> {
  const connector = CONNECTORS[platform];
  if (!connector) throw new ConnectError(`Connecting ${platform} live is not available`);
  return connector(options, io, deps);
}
