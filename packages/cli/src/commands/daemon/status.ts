import type { Ctx } from '../../context';
import { CliError, EXIT } from '../../errors';
import { runningDaemon } from '../../local/daemon-process';

/** `socialpub daemon status`: exit 0 when it runs and answers, 7 when not (handy in scripts). */
export async function daemonStatus(ctx: Ctx): Promise<void> {
  const dataDir = await ctx.dataDir();
  const running = await runningDaemon(dataDir);
  if (!running) {
    throw new CliError('daemon_unreachable', `no daemon runs on ${dataDir}`, EXIT.unreachable, {
      hint: 'start it with `socialpub up`',
      data: { running: false, data_dir: dataDir },
    });
  }
  const h = running.health as {
    status?: string;
    version?: string;
    uptime_s?: number;
    scheduler?: { running?: boolean; stalled?: boolean; last_tick?: string | null };
    targets?: Record<string, number>;
    database?: { kind: string; ok: boolean; error?: string };
    daemons?: { host: string; pid: number; url: string | null; leader: boolean; heartbeat_at: string }[];
  };
  ctx.log.result({ running: true, pid: running.pid, url: running.url, data_dir: dataDir, started_at: running.started_at, health: running.health }, () =>
    ctx.log.fields([
      ['daemon', `${ctx.log.green('running')} at ${running.url} (pid ${running.pid})`],
      ['data dir', dataDir],
      ['health', h.status === 'ok' ? ctx.log.green('ok') : ctx.log.red(String(h.status))],
      ...(h.version ? [['version', h.version] as const] : []),
      ...(h.uptime_s !== undefined ? [['uptime', `${Math.round(h.uptime_s)} s`] as const] : []),
      ...(h.scheduler
        ? [['scheduler', `${h.scheduler.running ? 'running' : 'stopped'}${h.scheduler.stalled ? ctx.log.red(' (stalled)') : ''}, last tick ${h.scheduler.last_tick ?? '-'}`] as const]
        : []),
      ...(h.targets ? [['targets', Object.entries(h.targets).filter(([, n]) => n > 0).map(([s, n]) => `${s} ${n}`).join(', ') || 'none'] as const] : []),
      ...(h.database ? [['database', `${h.database.kind}${h.database.ok ? '' : ctx.log.red(` (not answering: ${h.database.error ?? 'unknown'})`)}`] as const] : []),
      // Several daemons over one PostgreSQL database: every one alive, and which leads (docs/scaling.md).
      ...(h.daemons && h.daemons.length > 1
        ? h.daemons.map((d, i) => [i === 0 ? 'daemons' : '', `${d.url ?? '-'} (${d.host}, pid ${d.pid})${d.leader ? ' leader' : ''}, heartbeat ${d.heartbeat_at}`] as const)
        : []),
    ]),
  );
}
