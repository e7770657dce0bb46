import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';

/** `socialpub keys revoke <key_id>`: refused by the daemon from the next request on. */
export async function keysRevoke(ctx: Ctx, { keyId }: { keyId: string }): Promise<void> {
  const key = await withAdmin(await ctx.dataDir(), (admin) => admin.revokeKey(keyId));
  ctx.log.result(key, () => `${ctx.log.green('✔')} key ${keyId} revoked (${key.email})`);
}
