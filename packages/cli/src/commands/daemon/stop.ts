import type { Ctx } from '../../context';
import { stopBackground } from '../../local/daemon-process';

/** `socialpub down` / `daemon stop`: stopping a daemon that does not run is not an error. */
export async function daemonStop(ctx: Ctx): Promise<void> {
  const dataDir = await ctx.dataDir();
  const stopped = await stopBackground(dataDir);
  ctx.log.result({ stopped: stopped !== null, pid: stopped?.pid ?? null, forced: stopped?.forced ?? false, data_dir: dataDir }, () =>
    stopped
      ? `${ctx.log.green('✔')} daemon stopped (pid ${stopped.pid}${stopped.forced ? ', killed after 10 s' : ''})`
      : ctx.log.dim(`no daemon runs on ${dataDir}`),
  );
}
