import type { Ctx } from '../../context';
import type { StartFlags } from '../../local/daemon-process';
import { CliError, EXIT } from '../../errors';
import { clearDaemonState, daemonPaths, fetchHealth, isAlive, readDaemonState, writeDaemonState } from '../../local/daemon-files';
import { aborted, stopSignal } from '../../local/stop-signal';

/**
 * `socialpub daemon run`: the daemon in the foreground. Logs (JSON lines) go to stderr;
 * SIGINT or SIGTERM closes the listener, lets in-flight work settle and closes the store.
 * daemon.json records where it listens, for `up`, `status` and clients on this machine. On
 * PostgreSQL a second daemon may run on the same data dir (another port): it serves and
 * publishes beside the first and leaves daemon.json naming the first.
 */
export async function daemonRun(ctx: Ctx, flags: StartFlags): Promise<void> {
  const dataDir = await ctx.dataDir();
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
  // On SQLite the data dir's database is one daemon's. On PostgreSQL several daemons share the
  // data dir by design (docs/scaling.md "Several daemons": secret.key, media/), each on its own
  // port: another one running there is a peer, and daemon.json keeps naming it.
  const existing = await readDaemonState(dataDir);
  const peer = existing && isAlive(existing.pid) && (await fetchHealth(existing.url)) ? existing : null;
  if (peer && config.databaseUrl === null) {
    throw new CliError('conflict', `a daemon already runs on ${dataDir} (pid ${peer.pid}, ${peer.url})`, EXIT.conflict, {
      hint: 'stop it with `socialpub down`, or use another --data-dir (several daemons share a data dir on PostgreSQL only: docs/scaling.md)',
    });
  }
  const logger = createLogger({ level: config.logLevel, write: (line) => void ctx.io.stderr.write(`${line}\n`) });
  // The simulators run in a process of their own (`socialpub sandbox serve`), off the publisher's event loop.
  const { selfCommand } = await import('../../local/self-command');
  const daemon = await startDaemon(config, { logger, sandboxProcess: selfCommand() }).catch((error: unknown) => {
    // Another program on the port (8787 is a popular one): say which flag moves us, not only the system's word.
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new CliError('port_in_use', `${config.host}:${config.port} is already in use by another program`, EXIT.conflict, {
      hint: 'choose another port with --port 9000 (or SOCIALPUB_PORT=9000), or --port 0 for any free one',
    });
  });
  const stop = stopSignal(ctx.io);
  // The data dir's first daemon is the one daemon.json names (`up`, `down`, `daemon status`, clients on this machine).
  const recorded = peer === null;
  try {
    if (recorded) await writeDaemonState({
      pid: process.pid,
      url: daemon.url,
      host: config.host,
      port: daemon.port,
      started_at: new Date().toISOString(),
      data_dir: dataDir,
    });
    logger.info('socialpub daemon ready', { url: daemon.url, pid: process.pid, ...(recorded ? { state_file: daemonPaths(dataDir).state } : { beside: peer.url }) });
    if (ctx.io.interactive) ctx.io.stderr.write(`socialpub daemon listening on ${daemon.url} (data dir ${dataDir}); Ctrl-C stops it\n`);
    await aborted(stop.signal);
    logger.info('shutting down', { signal: String(stop.signal.reason ?? 'stop') });
  } finally {
    stop.dispose();
    await daemon.close();
    if (recorded) await clearDaemonState(dataDir, process.pid);
  }
}
