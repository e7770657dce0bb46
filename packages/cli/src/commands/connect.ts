import { isPlatform, PLATFORMS, type Platform } from '@socialpub/core';
import type { Ctx } from '../context';
import { UsageError } from '../errors';
import type { ConnectionListing } from '@socialpub/daemon';
import { withAdmin } from '../local/admin';

export interface ConnectOptions {
  platform: string;
  sandbox: boolean;
  user?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  page?: string | undefined;
  accessToken?: string | undefined;
  accessSecret?: string | undefined;
  browser: boolean;
}

const CLIENT_ID_LABEL: Record<Platform, string> = {
  instagram: 'Meta app id',
  facebook: 'Meta app id',
  threads: 'Threads app id',
  twitter: 'X OAuth 2.0 client id',
  tiktok: 'TikTok client key',
  youtube: 'Google OAuth client id',
};

/**
 * `socialpub connect <platform>`: --sandbox records a connection to the daemon's
 * simulator at once; otherwise runs the platform's OAuth flow in the browser with the
 * user's own app credentials (flags, else prompted; twitter also takes pasted OAuth
 * 1.0a tokens) and stores the tokens encrypted in the data dir.
 */
export async function connect(ctx: Ctx, o: ConnectOptions): Promise<void> {
  if (!isPlatform(o.platform)) throw new UsageError(`unknown platform "${o.platform}" (known: ${PLATFORMS.join(', ')})`);
  const platform = o.platform;
  const dataDir = await ctx.dataDir();
  let connection: ConnectionListing;
  if (o.sandbox) {
    connection = await withAdmin(dataDir, (admin) => admin.addSandboxConnection(platform, o.user ? { email: o.user } : {}));
  } else {
    const pasted = platform === 'twitter' && o.accessToken !== undefined;
    if (pasted && !o.accessSecret) throw new UsageError('--access-token needs --access-secret (OAuth 1.0a user tokens come in pairs)');
    const clientId = o.clientId ?? (await ctx.prompts.input(`${CLIENT_ID_LABEL[platform]}:`, '--client-id <id>', { validate: (v) => (v.trim() ? true : 'required') }));
    const clientSecret = o.clientSecret ?? (await ctx.prompts.password(`${CLIENT_ID_LABEL[platform].replace(/ (id|key)$/, '')} secret:`, '--client-secret <secret>'));
    const { connectLive } = await import('../local/connect-live');
    connection = await connectLive(ctx, {
      dataDir,
      platform,
      email: o.user,
      clientId: clientId.trim(),
      clientSecret: clientSecret.trim(),
      page: o.page,
      accessToken: o.accessToken,
      accessSecret: o.accessSecret,
      browser: o.browser,
    });
  }
  ctx.log.result(connection, () => [
    `${ctx.log.green('✔')} ${platform} connected (${connection.mode}) for ${connection.email}${connection.account_name ? `: ${connection.account_name}` : ''}${connection.page_name ? `, page ${connection.page_name}` : ''}`,
    ctx.log.dim(`try: socialpub publish "hello" -p ${platform} --now --wait`),
  ]);
}
