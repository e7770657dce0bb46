import type { Ctx } from '../context';
import { withAdmin } from '../local/admin';
import { readDaemonState } from '../local/daemon-files';
import { openBrowser } from '../local/open-browser';

/**
 * `socialpub dashboard`: writes a one-time sign-in token to the data dir (only its hash is
 * stored) and opens `{base}/auth/link/{token}`, which signs the browser in once and then
 * leaves the address bar. `--json` prints `{"url", "expires_at"}` and opens nothing.
 */
export async function dashboard(ctx: Ctx, { user, open }: { user?: string; open: boolean }): Promise<void> {
  const dataDir = await ctx.dataDir();
  const link = await withAdmin(dataDir, (admin) => admin.createSigninLink(user ? { email: user } : {}));
  const base = await ctx.baseUrl();
  const url = `${base}/auth/link/${link.token}`;
  if (ctx.opts.json) {
    ctx.log.result({ url, expires_at: link.expires_at }, () => url);
    return;
  }
  const running = ctx.opts.baseUrl !== undefined || ctx.io.env.SOCIALPUB_BASE_URL || (await readDaemonState(dataDir)) !== null;
  if (open) await openBrowser(ctx.io, url, true, `to sign in to the dashboard as ${link.email} (works once, until ${link.expires_at})`);
  else ctx.log.result({ url, expires_at: link.expires_at }, () => [url, ctx.log.dim(`Signs in ${link.email} once, until ${link.expires_at}.`)]);
  if (!running) ctx.io.stderr.write('No daemon seems to run on this data dir: start it first (socialpub up).\n');
}
