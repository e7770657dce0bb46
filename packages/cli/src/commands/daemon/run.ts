import type { Ctx } from '../../context';
import type { StartFlags } from '../../local/daemon-process';
import { CliError, EXIT } from '../../errors';
import { clearDaemonState, daemonPaths, fetchHealth, isAlive, readDaemonState, writeDaemonState } from '../../local/daemon-files';
import { aborted, stopSignal } from '../../local/stop-signal';

/**
 * `socialpub daemon run`: the daemon in the foreground. Logs (JSON lines) go to stderr;
 * SIGINT or SIGTERM closes the listener, lets in-flight work settle and closes the store.
 * daemon.json records where it listens, for `up`, `status` and clients on this machine.
 */
export async function daemonRun(ctx: Ctx, flags: StartFlags): Promise<void> {
  const dataDir = await ctx.dataDir();
  const existing = await readDaemonState(dataDir);
  if (existing && isAlive(existing.pid) && (await fetchHealth(existing.url))) {
    throw new CliError('conflict', `a daemon already runs on ${dataDir} (pid ${existing.pid}, ${existing.url})`, EXIT.conflict, {
      hint: 'stop it with `socialpub down`, or use another --data-dir',
    });
  }
  const { startDaemon, resolveConfig, createLogger } = await import('@socialpub/daemon');
  const config = resolveConfig(
    {
      dataDir,
      ...(flags.host ? { host: flags.host } : {}),
      ...(flags.port !== undefined ? { port: flags.port } : {}),
      ...(flags.publicUrl ? { publicUrl: flags.publicUrl } : {}),
      ...(flags.tlsCert ? { tlsCert: flags.tlsCert } : {}),
      ...(flags.tlsKey ? { tlsKey: flags.tlsKey } : {}),
      ...(flags.behindProxy ? { behindProxy: true } : {}),
      ...(flags.database ? { databaseUrl: flags.database } : {}),
    },
    ctx.io.env as NodeJS.ProcessEnv,
  );
  const logger = createLogger({ level: config.logLevel, write: (line) => void ctx.io.stderr.write(`${line}\n`) });
  // The simulators run in a process of their own (`socialpub sandbox serve`), off the publisher's event loop.
  const { selfCommand } = await import('../../local/self-command');
  const daemon = await startDaemon(config, { logger, sandboxProcess: selfCommand() });
  const stop = stopSignal(ctx.io);
  try {
    await writeDaemonState({
      pid: process.pid,
      url: daemon.url,
      host: config.host,
      port: daemon.port,
      started_at: new Date().toISOString(),
      data_dir: dataDir,
    });
    logger.info('socialpub daemon ready', { url: daemon.url, pid: process.pid, state_file: daemonPaths(dataDir).state });
    if (ctx.io.interactive) ctx.io.stderr.write(`socialpub daemon listening on ${daemon.url} (data dir ${dataDir}); Ctrl-C stops it\n`);
    await aborted(stop.signal);
    logger.info('shutting down', { signal: String(stop.signal.reason ?? 'stop') });
  } finally {
    stop.dispose();
    await daemon.close();
    await clearDaemonState(dataDir, process.pid);
  }
}
