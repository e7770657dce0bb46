import type { Ctx } from '../../context';
import type { ConnectionListing } from '@socialpub/daemon';
import { readAdmin } from '../../local/admin';
import { shortTime } from '../../ui/format';
import { keyUser } from '../key-user';

/**
 * The STATUS cell: `expired: <reason>` (reconnect), `active, paused until <time>` while a
 * platform's rate limit holds it back (`, app-wide` when the limit is the application's), or `active`.
 */
function connectionStatus(c: ConnectionListing): string {
  if (c.status !== 'active') return c.status_reason ? `${c.status}: ${c.status_reason}` : c.status;
  if (!c.paused) return c.status;
  return `active, paused until ${shortTime(c.paused.until)}${c.paused.applies_to === 'app' ? ', app-wide' : ''}`;
}

/**
 * `socialpub connections list`: expired ones stand out, with the reason (reconnect them);
 * paused ones, until when; each account's label, the default marked. From the data dir
 * (every user's), or through the API of a daemon named elsewhere (`GET /connections`: the
 * key's user's accounts).
 */
export async function connectionsList(ctx: Ctx, { user }: { user?: string | undefined }): Promise<void> {
  const from = await ctx.adminReadsFrom();
  const connections = 'api' in from ? await apiConnections(ctx, user) : await readAdmin(from.local, (admin) => admin.listConnections(user ? { email: user } : {}));
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

/** The key's user's accounts as the daemon named lists them, in the data dir's listing's shape. */
async function apiConnections(ctx: Ctx, user: string | undefined): Promise<ConnectionListing[]> {
  const client = await ctx.client();
  const who = await keyUser(client, user);
  const { data } = await client.connections.list();
  return data.map((c) => ({
    connection_id: c.id,
    user_id: who.id,
    email: who.email,
    platform: c.platform,
    // A daemon from before labels had one account per platform: its default.
    label: c.label ?? 'default',
    is_default: c.is_default ?? true,
    mode: c.sandbox ? 'sandbox' : 'live',
    status: c.status,
    status_reason: c.status_reason,
    account_id: c.account_id,
    account_name: c.account_name,
    page_id: c.page_id,
    page_name: c.page_name,
    token_expires_at: c.token_expires_at,
    updated_at: c.updated_at,
    paused: c.paused,
    ...(c.sandbox_password !== undefined ? { sandbox_password: c.sandbox_password } : {}),
  }));
}
