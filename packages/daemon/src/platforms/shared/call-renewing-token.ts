import type { AccountAccess } from '../adapter';

/**
 * Runs one API call for a target. When the platform refuses the access token (`refused`)
 * and the connection has a refresh token, renews the token once (`renew`) and runs the
 * call again: a refused call changed nothing, so repeating it cannot post twice. Every
 * failure, the renewal's included, leaves through `mapError`.
 */
export async function callRenewingToken<T>(
  ctx: AccountAccess,
  run: () => Promise<T>,
  how: { refused(err: unknown): boolean; renew(): Promise<void>; mapError(err: unknown): Error },
): Promise<T> {
  try {
    try {
      return await run();
    } catch (err) {
      if (!how.refused(err) || !ctx.credentials.secrets.refresh_token) throw err;
      await how.renew();
      return await run();
    }
  } catch (err) {
    throw how.mapError(err);
  }
}
