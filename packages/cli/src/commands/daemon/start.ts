import type { Ctx } from '../../context';
import { runningDaemon, startBackground, type StartFlags } from '../../local/daemon-process';
import { daemonPaths } from '../../local/daemon-files';

/** `socialpub daemon start`: in the background; reports an already running one. */
export async function daemonStart(ctx: Ctx, flags: StartFlags): Promise<void> {
  const dataDir = await ctx.dataDir();
  const running = await runningDaemon(dataDir);
  if (running) {
    ctx.log.result({ started: false, already_running: true, pid: running.pid, url: running.url, data_dir: dataDir }, () =>
      `${ctx.log.green('✔')} already running at ${running.url} (pid ${running.pid})`,
    );
    return;
  }
  const spinner = (await ctx.spinner()).start('starting the daemon');
  try {
    const state = await startBackground(ctx.io, dataDir, flags);
    spinner.succeed(`daemon running at ${state.url} (pid ${state.pid})`);
    ctx.log.result({ started: true, already_running: false, pid: state.pid, url: state.url, data_dir: dataDir, log: daemonPaths(dataDir).log }, () => []);
  } catch (err) {
    spinner.fail('the daemon did not start');
    throw err;
  }
}
