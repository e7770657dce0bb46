import { isPlatform, PLATFORMS } from '@socialpub/core';
import type { Ctx } from '../context';
import { UsageError } from '../errors';
import type { ConnectionListing } from '@socialpub/daemon';
import { withAdmin } from '../local/admin';
import type { LiveCredentials } from '../local/connect-live';

export interface ConnectOptions extends LiveCredentials {
  platform: string;
  sandbox: boolean;
  user?: string | undefined;
  login?: string | undefined;
}

/**
 * `socialpub connect <platform>`: --sandbox records a connection to the daemon's
 * simulator at once; otherwise runs the platform's OAuth flow in the browser with the
 * user's own app credentials (flags, else prompted by the platform's flow; twitter also
 * takes pasted OAuth 1.0a tokens) and stores the tokens encrypted in the data dir.
 */
export async function connect(ctx: Ctx, o: ConnectOptions): Promise<void> {
  if (!isPlatform(o.platform)) throw new UsageError(`unknown platform "${o.platform}" (known: ${PLATFORMS.join(', ')})`);
  const platform = o.platform;
  const dataDir = await ctx.dataDir();
  let connection: ConnectionListing;
  if (o.sandbox) {
    connection = await withAdmin(dataDir, (admin) => admin.addSandboxConnection(platform, o.user ? { email: o.user } : {}));
  } else {
    if (o.login !== undefined && o.login !== 'instagram' && o.login !== 'facebook') throw new UsageError('--login is instagram or facebook');
    if ((o.accessToken === undefined) !== (o.accessSecret === undefined)) throw new UsageError('--access-token and --access-secret come together (an OAuth 1.0a user token pair)');
    const { connectLive } = await import('../local/connect-live');
    const { platform: _named, sandbox: _sandbox, user, login, ...credentials } = o;
    connection = await connectLive(ctx, { ...credentials, dataDir, platform, email: user, login: login as 'instagram' | 'facebook' | undefined });
  }
  ctx.log.result(connection, () => [
    `${ctx.log.green('✔')} ${platform} connected (${connection.mode}) for ${connection.email}${connection.account_name ? `: ${connection.account_name}` : ''}${connection.page_name ? `, page ${connection.page_name}` : ''}`,
    ctx.log.dim(`try: socialpub publish "hello" -p ${platform} --now --wait`),
  ]);
}
