import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';
import { platformName } from '../../platform-name';

/** `socialpub connections remove <platform|con_id>`: its tokens are deleted; its scheduled targets will fail with platform_not_connected. */
export async function connectionsRemove(ctx: Ctx, { platform: named, user }: { platform: string; user?: string | undefined }): Promise<void> {
  // A platform as people type it (`X`, `Twitter`), or a connection id as is.
  const platform = platformName(named) ?? named;
  await withAdmin(await ctx.dataDir(), (admin) => admin.removeConnection(platform, user ? { email: user } : {}));
  ctx.log.result({ platform, removed: true }, () => `${ctx.log.green('✔')} ${platform} disconnected`);
}
