import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';

/**
 * `socialpub keys create`: creates the user if new; the full key is printed once (only its
 * hash is stored). `scope` (default full): what the key may do (docs/api.md "Key scopes").
 */
export async function keysCreate(ctx: Ctx, { user, name, scope }: { user?: string | undefined; name?: string | undefined; scope?: string | undefined }): Promise<void> {
  const key = await withAdmin(await ctx.dataDir(), (admin) => admin.createKey({ ...(user ? { email: user } : {}), ...(name ? { name } : {}), ...(scope ? { scope } : {}) }));
  ctx.log.result(key, () => [
    `${ctx.log.green('✔')} ${key.scope} key ${ctx.log.bold(key.key_id)} created for ${key.email}`,
    '',
    `  ${ctx.log.bold(key.api_key)}`,
    '',
    ctx.log.dim('This is the only time the full key is shown. Save it, e.g.: socialpub config set api-key <key>'),
  ]);
}
