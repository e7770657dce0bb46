import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';

/** `socialpub keys rotate <key_id>`: a new key for the same user; the old one dies at once. */
export async function keysRotate(ctx: Ctx, { keyId, save }: { keyId: string; save: boolean }): Promise<void> {
  const key = await withAdmin(await ctx.dataDir(), (admin) => admin.rotateKey(keyId));
  if (save) await (await ctx.config()).set('api-key', key.api_key);
  ctx.log.result({ ...key, saved: save }, () => [
    `${ctx.log.green('✔')} key ${keyId} replaced by ${ctx.log.bold(key.key_id)} (the old one no longer works)`,
    '',
    `  ${ctx.log.bold(key.api_key)}`,
    '',
    save ? ctx.log.dim('saved in the CLI config') : ctx.log.dim('shown once; save it with: socialpub config set api-key <key>'),
  ]);
}
