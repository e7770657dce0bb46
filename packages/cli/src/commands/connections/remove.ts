import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';
import { accountName } from '../../platform-name';

/**
 * `socialpub connections remove <platform|platform:label|con_id>`: its tokens are deleted;
 * its scheduled targets will fail with platform_not_connected (never go out through another
 * account). A removed default hands the default to the oldest other account of the platform.
 */
export async function connectionsRemove(ctx: Ctx, { platform: named, user }: { platform: string; user?: string | undefined }): Promise<void> {
  // A platform as people type it (`X`, `Twitter`, `X:brand`), or a connection id as is.
  const platform = accountName(named);
  await withAdmin(await ctx.dataDir(), (admin) => admin.removeConnection(platform, user ? { email: user } : {}));
  ctx.log.result({ platform, removed: true }, () => `${ctx.log.green('✔')} ${platform} disconnected`);
}
