import type { KeyListing } from '@socialpub/daemon';
import type { Ctx } from '../../context';
import { readAdmin } from '../../local/admin';
import { shortTime } from '../../ui/format';
import { keyUser } from '../key-user';

/**
 * `socialpub keys list`: ids, owners, prefixes, states and scopes; never secrets. From the
 * data dir (every user's keys, revoked ones too), or through the API of a daemon named
 * elsewhere (`GET /keys`: the key's user's active keys; a full key only).
 */
export async function keysList(ctx: Ctx, { user }: { user?: string | undefined }): Promise<void> {
  const from = await ctx.adminReadsFrom();
  const keys = 'api' in from ? await apiKeys(ctx, user) : await readAdmin(from.local, (admin) => admin.listKeys(user ? { email: user } : {}));
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

/** The key's user's keys as the daemon named lists them, in the data dir's listing's shape (all active: GET /keys lists no others). */
async function apiKeys(ctx: Ctx, user: string | undefined): Promise<KeyListing[]> {
  const client = await ctx.client();
  const who = await keyUser(client, user);
  const { data } = await client.keys.list();
  return data.map((k) => ({
    key_id: k.id,
    user_id: who.id,
    email: who.email,
    name: k.name,
    scope: k.scope,
    prefix: k.prefix,
    status: 'active',
    created_at: k.created_at,
    last_used_at: k.last_used_at,
    revoked_at: null,
    replaced_by: null,
  }));
}
