import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { withAdmin } from '../../local/admin';

/** The settings there are (`settings get`, `settings set`). */
export const SETTINGS: readonly string[] = ['approval-workflow', 'agent-approval', 'timezone'];

const ON = ['on', 'true', 'yes', '1'];
const OFF = ['off', 'false', 'no', '0'];

/**
 * `socialpub settings set approval-workflow|agent-approval on|off`. approval-workflow: every
 * new job waits for `schedule approve`; agent-approval: jobs created through MCP do.
 * `socialpub settings set timezone Europe/Berlin` (or `none`): the zone local times of the user's requests are read in.
 */
export async function settingsSet(ctx: Ctx, { name, value, user }: { name: string; value: string; user?: string | undefined }): Promise<void> {
  if (!SETTINGS.includes(name)) throw new UsageError(`unknown setting "${name}" (known: ${SETTINGS.join(', ')})`);
  if (name === 'timezone') {
    const zone = /^(none|off|unset)$/i.test(value) ? null : value;
    const res = await withAdmin(await ctx.dataDir(), (admin) => admin.setTimezone(user, zone));
    ctx.log.result(res, () => `${ctx.log.green('✔')} timezone ${res.timezone ?? 'none (UTC)'} for ${res.email}`);
    return;
  }
  const v = value.toLowerCase();
  if (!ON.includes(v) && !OFF.includes(v)) throw new UsageError(`${name} is on or off, not "${value}"`);
  const on = ON.includes(v);
  if (name === 'agent-approval') {
    const res = await withAdmin(await ctx.dataDir(), (admin) => admin.setAgentApproval(user, on));
    ctx.log.result(res, () => `${ctx.log.green('✔')} agent approval ${on ? 'on: posts made through MCP wait for `socialpub schedule approve`' : 'off'} for ${res.email}`);
    return;
  }
  const res = await withAdmin(await ctx.dataDir(), (admin) => admin.setApprovalWorkflow(user, on));
  ctx.log.result(res, () => `${ctx.log.green('✔')} approval workflow ${on ? 'on: new jobs wait for `socialpub schedule approve`' : 'off'} for ${res.email}`);
}
