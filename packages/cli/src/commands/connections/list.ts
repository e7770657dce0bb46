import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';
import { shortTime } from '../../ui/format';

/** `socialpub connections list`: expired ones stand out, with the reason (reconnect them). */
export async function connectionsList(ctx: Ctx, { user }: { user?: string | undefined }): Promise<void> {
  const connections = await withAdmin(await ctx.dataDir(), (admin) => admin.listConnections(user ? { email: user } : {}));
  ctx.log.result({ connections }, () =>
    ctx.log.table(
      connections,
      [
        { header: 'PLATFORM', value: (c) => c.platform },
        { header: 'MODE', value: (c) => c.mode },
        { header: 'STATUS', value: (c) => (c.status_reason && c.status !== 'active' ? `${c.status}: ${c.status_reason}` : c.status), style: (s, c) => (c.status === 'active' ? ctx.log.green(s) : ctx.log.red(s)) },
        { header: 'ACCOUNT', value: (c) => [c.account_name ?? c.account_id, c.page_name ? `page ${c.page_name}` : null].filter(Boolean).join(', ') },
        { header: 'USER', value: (c) => c.email },
        { header: 'TOKEN EXPIRES', value: (c) => shortTime(c.token_expires_at) },
      ],
      'no connections yet: `socialpub connect twitter --sandbox`',
    ),
  );
}
