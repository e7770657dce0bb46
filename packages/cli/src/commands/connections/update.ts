import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';
import { accountName } from '../../platform-name';

/**
 * `socialpub connections rename <account> <label>` and `socialpub connections default
 * <account>`: an account named by platform (its default), platform:label or con_ id.
 */
export async function connectionsUpdate(
  ctx: Ctx,
  { account, user, label, makeDefault }: { account: string; user?: string | undefined; label?: string; makeDefault?: boolean },
): Promise<void> {
  const name = accountName(account);
  const change = { ...(label !== undefined ? { label } : {}), ...(makeDefault ? { default: true as const } : {}) };
  const updated = await withAdmin(await ctx.dataDir(), (admin) => admin.updateConnection(name, change, user ? { email: user } : {}));
  ctx.log.result(updated, () =>
    `${ctx.log.green('✔')} ${updated.platform}:${updated.label}${updated.is_default ? ` is the default ${updated.platform} account (-p ${updated.platform})` : ''}`,
  );
}
