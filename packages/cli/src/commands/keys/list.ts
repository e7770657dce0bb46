import type { Ctx } from '../../context';
import { readAdmin } from '../../local/admin';
import { shortTime } from '../../ui/format';

/** `socialpub keys list`: ids, owners, prefixes, states and scopes; never secrets. */
export async function keysList(ctx: Ctx, { user }: { user?: string | undefined }): Promise<void> {
  const keys = await readAdmin(await ctx.dataDir(), (admin) => admin.listKeys(user ? { email: user } : {}));
  ctx.log.result({ keys }, () =>
    ctx.log.table(
      keys,
      [
        { header: 'KEY', value: (k) => k.key_id },
        { header: 'USER', value: (k) => k.email },
        { header: 'NAME', value: (k) => k.name ?? '' },
        { header: 'PREFIX', value: (k) => `${k.prefix}…` },
        { header: 'CREATED', value: (k) => shortTime(k.created_at) },
        { header: 'LAST USED', value: (k) => shortTime(k.last_used_at) },
        { header: 'STATUS', value: (k) => (k.replaced_by ? `${k.status} (by ${k.replaced_by})` : k.status), style: (s, k) => (k.status === 'active' ? ctx.log.green(s) : ctx.log.dim(s)) },
        { header: 'SCOPE', value: (k) => k.scope },
      ],
      'no keys yet: `socialpub keys create`',
    ),
  );
}
