import type { Ctx } from '../context';
import { CONFIG_KEYS, isConfigKey } from '../config';
import { UsageError } from '../errors';

/** Shows a key's first characters only: enough to tell keys apart, useless to a shoulder-surfer. */
export function maskKey(key: string): string {
  const m = /^(sp_key_[0-9a-z]+_)/.exec(key);
  return m ? `${m[1]}…` : `${key.slice(0, 4)}…`;
}

/** `socialpub config get [key]`: one value (printed as is, for scripts), or all (the key masked). */
export async function configGet(ctx: Ctx, { key }: { key?: string | undefined }): Promise<void> {
  const config = await ctx.config();
  if (key !== undefined) {
    if (!isConfigKey(key)) throw new UsageError(`unknown config key "${key}" (known: ${CONFIG_KEYS.join(', ')})`);
    const value = config.get(key);
    ctx.log.result({ [key]: value ?? null }, () => value ?? ctx.log.dim('(not set)'));
    return;
  }
  const all = config.all();
  const shown = { ...all, ...(all['api-key'] ? { 'api-key': maskKey(all['api-key']) } : {}) };
  ctx.log.result(shown, () => ctx.log.fields(CONFIG_KEYS.map((k) => [k, shown[k] ?? ctx.log.dim('(not set)')] as const)));
}

export async function configSet(ctx: Ctx, { key, value }: { key: string; value: string }): Promise<void> {
  const config = await ctx.config();
  await config.set(key, value);
  ctx.log.result({ [key]: key === 'api-key' ? maskKey(value) : value }, () => `${ctx.log.green('✔')} ${key} saved in ${config.path}`);
}

export async function configUnset(ctx: Ctx, { key }: { key: string }): Promise<void> {
  const config = await ctx.config();
  await config.unset(key);
  ctx.log.result({ [key]: null }, () => `${ctx.log.green('✔')} ${key} removed`);
}

export async function configPath(ctx: Ctx): Promise<void> {
  const config = await ctx.config();
  ctx.log.result({ path: config.path }, () => config.path);
}
