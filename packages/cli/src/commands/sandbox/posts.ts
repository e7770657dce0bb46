import { isPlatform, PLATFORMS } from '@socialpub/core';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { openAdmin } from '../../local/admin';
import { shortTime, truncate } from '../../ui/format';

/** `socialpub sandbox posts`: what the simulators received — the user's view of a dry run. */
export async function sandboxPosts(ctx: Ctx, { platform }: { platform?: string | undefined }): Promise<void> {
  if (platform !== undefined && !isPlatform(platform)) throw new UsageError(`unknown platform "${platform}" (known: ${PLATFORMS.join(', ')})`);
  const admin = await openAdmin(await ctx.dataDir());
  try {
    const posts = await admin.listSandboxPosts(platform);
    const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));
    ctx.log.result({ posts }, () =>
      ctx.log.table(
        posts,
        [
          { header: 'PLATFORM', value: (p) => str(p.platform) },
          { header: 'TYPE', value: (p) => str(p.type) },
          { header: 'POSTED', value: (p) => shortTime(str(p.created_at) || null) },
          { header: 'POST', value: (p) => str(p.url ?? p.post_id ?? p.id) },
          { header: 'TEXT', value: (p) => truncate(str(p.text ?? p.caption), 40) },
        ],
        platform ? `the ${platform} simulator received nothing yet` : 'the simulators received nothing yet',
      ),
    );
  } finally {
    await admin.close();
  }
}
