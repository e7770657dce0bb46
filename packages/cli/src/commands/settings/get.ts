import type { UserSettings } from '@socialpub/daemon';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { readAdmin } from '../../local/admin';
import { keyUser } from '../key-user';
import { SETTINGS } from './set';

/**
 * `socialpub settings [get [name]]`: a user's settings as they are now. By name, the value
 * alone (`on`/`off`, for scripts); without, every setting. `--json`: the same document as
 * `settings set` prints, `{email, user_id, approval_workflow, agent_approval, timezone}`.
 * From the data dir, or through the API of a daemon named elsewhere (`GET /settings`: the
 * key's user's).
 */
export async function settingsGet(ctx: Ctx, { name, user }: { name?: string | undefined; user?: string | undefined }): Promise<void> {
  if (name !== undefined && !SETTINGS.includes(name)) throw new UsageError(`unknown setting "${name}" (known: ${SETTINGS.join(', ')})`);
  const from = await ctx.adminReadsFrom();
  const res = 'api' in from ? await apiSettings(ctx, user) : await readAdmin(from.local, (admin) => admin.settings(user));
  const approval = res.approval_workflow ? 'on' : 'off';
  const agent = res.agent_approval ? 'on' : 'off';
  const zone = res.timezone ?? 'none (UTC)';
  const one = name === 'timezone' ? zone : name === 'agent-approval' ? agent : approval;
  ctx.log.result(res, () =>
    name !== undefined ? one : ctx.log.fields([['user', res.email], ['approval-workflow', approval], ['agent-approval', agent], ['timezone', zone]]),
  );
}

/** The key's user's settings as the daemon named answers them, in the data dir's shape. */
async function apiSettings(ctx: Ctx, user: string | undefined): Promise<UserSettings> {
  const client = await ctx.client();
  const who = await keyUser(client, user);
  const { settings } = await client.settings.get();
  return {
    email: who.email,
    user_id: who.id,
    approval_workflow: settings.approval_workflow,
    // A daemon from before the field left it out: off, as it was then for every key but MCP's.
    agent_approval: settings.agent_approval ?? false,
    timezone: settings.timezone,
  };
}
