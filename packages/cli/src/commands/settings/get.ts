import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { readAdmin } from '../../local/admin';
import { SETTINGS } from './set';

/**
 * `socialpub settings [get [name]]`: a user's settings as they are now. By name, the value
 * alone (`on`/`off`, for scripts); without, every setting. `--json`: the same document as
 * `settings set` prints, `{email, user_id, approval_workflow, agent_approval, timezone}`.
 */
export async function settingsGet(ctx: Ctx, { name, user }: { name?: string | undefined; user?: string | undefined }): Promise<void> {
  if (name !== undefined && !SETTINGS.includes(name)) throw new UsageError(`unknown setting "${name}" (known: ${SETTINGS.join(', ')})`);
  const res = await readAdmin(await ctx.dataDir(), (admin) => admin.settings(user));
  const approval = res.approval_workflow ? 'on' : 'off';
  const agent = res.agent_approval ? 'on' : 'off';
  const zone = res.timezone ?? 'none (UTC)';
  const one = name === 'timezone' ? zone : name === 'agent-approval' ? agent : approval;
  ctx.log.result(res, () =>
    name !== undefined ? one : ctx.log.fields([['user', res.email], ['approval-workflow', approval], ['agent-approval', agent], ['timezone', zone]]),
  );
}
