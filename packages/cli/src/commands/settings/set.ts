import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { withAdmin } from '../../local/admin';

/** The settings there are (`settings get`, `settings set`). */
export const SETTINGS: readonly string[] = ['approval-workflow', 'agent-approval'];

const ON = ['on', 'true', 'yes', '1'];
const OFF = ['off', 'false', 'no', '0'];

/**
 * `socialpub settings set approval-workflow|agent-approval on|off`. approval-workflow: every
 * new job waits for `schedule approve`; agent-approval: jobs created through MCP do.
 */
export async function settingsSet(ctx: Ctx, { name, value, user }: { name: string; value: string; user?: string | undefined }): Promise<void> {
  if (!SETTINGS.includes(name)) throw new UsageError(`unknown setting "${name}" (known: ${SETTINGS.join(', ')})`);
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
