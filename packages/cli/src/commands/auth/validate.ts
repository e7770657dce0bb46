import type { Ctx } from '../../context';

/** `socialpub auth validate` / `whoami`: asks the daemon whose key this is. */
export async function authValidate(ctx: Ctx): Promise<void> {
  const client = await ctx.client();
  const res = await client.auth.validate();
  const baseUrl = await ctx.baseUrl();
  ctx.log.result({ valid: true, user: res.user, base_url: baseUrl }, () =>
    ctx.log.fields([
      ['user', ctx.log.bold(res.user.email)],
      ['user id', res.user.id],
      ['daemon', baseUrl],
      ['key', ctx.log.green('valid')],
    ]),
  );
}
