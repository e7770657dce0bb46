import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { withAdmin } from '../../local/admin';

/** The settings there are (`settings get`, `settings set`). */
export const SETTINGS: readonly string[] = ['approval-workflow'];

const ON = ['on', 'true', 'yes', '1'];
const OFF = ['off', 'false', 'no', '0'];

/** `socialpub settings set approval-workflow on|off`: when on, every new job waits for `schedule approve`. */
export async function settingsSet(ctx: Ctx, { name, value, user }: { name: string; value: string; user?: string | undefined }): Promise<void> {
  if (!SETTINGS.includes(name)) throw new UsageError(`unknown setting "${name}" (known: ${SETTINGS.join(', ')})`);
  const v = value.toLowerCase();
  if (!ON.includes(v) && !OFF.includes(v)) throw new UsageError(`approval-workflow is on or off, not "${value}"`);
  const on = ON.includes(v);
  const res = await withAdmin(await ctx.dataDir(), (admin) => admin.setApprovalWorkflow(user, on));
  ctx.log.result(res, () => `${ctx.log.green('✔')} approval workflow ${on ? 'on: new jobs wait for `socialpub schedule approve`' : 'off'} for ${res.email}`);
}
