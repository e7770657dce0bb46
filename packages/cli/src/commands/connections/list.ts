import type { Ctx } from '../../context';
import type { ConnectionListing } from '@socialpub/daemon';
import { readAdmin } from '../../local/admin';
import { shortTime } from '../../ui/format';

/**
 * The STATUS cell: `expired: <reason>` (reconnect), `active, paused until <time>` while a
 * platform's rate limit holds it back (`, app-wide` when the limit is the application's), or `active`.
 */
function connectionStatus(c: ConnectionListing): string {
  if (c.status !== 'active') return c.status_reason ? `${c.status}: ${c.status_reason}` : c.status;
  if (!c.paused) return c.status;
  return `active, paused until ${shortTime(c.paused.until)}${c.paused.applies_to === 'app' ? ', app-wide' : ''}`;
}

/** `socialpub connections list`: expired ones stand out, with the reason (reconnect them); paused ones, until when; each account's label, the default marked. */
export async function connectionsList(ctx: Ctx, { user }: { user?: string | undefined }): Promise<void> {
  const connections = await readAdmin(await ctx.dataDir(), (admin) => admin.listConnections(user ? { email: user } : {}));
  ctx.log.result({ connections }, () =>
    ctx.log.table(
      connections,
      [
        { header: 'PLATFORM', value: (c) => c.platform },
        { header: 'MODE', value: (c) => c.mode },
        { header: 'STATUS', value: connectionStatus, style: (s, c) => (c.status !== 'active' ? ctx.log.red(s) : c.paused ? ctx.log.yellow(s) : ctx.log.green(s)) },
        // What -p names it by: platform:label, the default also by the bare platform.
        { header: 'LABEL', value: (c) => (c.is_default ? `${c.label} (default)` : c.label) },
        { header: 'ACCOUNT', value: (c) => [c.account_name ?? c.account_id, c.page_name ? `page ${c.page_name}` : null].filter(Boolean).join(', ') },
        { header: 'USER', value: (c) => c.email },
        { header: 'TOKEN EXPIRES', value: (c) => shortTime(c.token_expires_at) },
      ],
      'no connections yet: `socialpub connect twitter --sandbox`',
    ),
  );
}
