import type { Command, OptionValues } from '@commander-js/extra-typings';
import { examples, parseCount, parsePort, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `--host`, `--port`, `--public-url`: where a daemon started by this command listens (up, daemon start, daemon run). */
export function withListenOptions<A extends unknown[], O extends OptionValues, G extends OptionValues>(cmd: Command<A, O, G>) {
  return cmd
    .option('--host <host>', 'address to listen on (env SOCIALPUB_HOST; default 127.0.0.1)')
    .option('--port <port>', 'port to listen on, 0 for any free one (env SOCIALPUB_PORT; default 8787)', parsePort)
    .option('--public-url <url>', 'public base URL for prepared media (env SOCIALPUB_PUBLIC_URL)')
    .option('--database <url>', 'PostgreSQL instead of the data dir\'s SQLite: postgres://user:password@host:5432/db (env SOCIALPUB_DATABASE_URL; config.json database_url)');
}

/** `socialpub down`: the short way to `daemon stop`. */
export function defineDown(program: Program, kit: Kit): void {
  examples(
    program
      .command('down')
      .description('stop the background daemon')
      .action(async () => (await import('./daemon/stop')).daemonStop(kit.ctx())),
    ['socialpub down'],
  );
}

/** `socialpub daemon start|stop|status|logs|run`. */
export function defineDaemon(program: Program, kit: Kit): void {
  const daemon = examples(program.command('daemon').description('start, stop, inspect or run the daemon'), [
    'socialpub daemon start',
    'socialpub daemon status --json',
    'socialpub daemon logs --follow',
    'socialpub daemon stop',
  ]);
  examples(
    withListenOptions(daemon.command('start').description('start the daemon in the background')).action(async (o) =>
      (await import('./daemon/start')).daemonStart(kit.ctx(), o),
    ),
    ['socialpub daemon start', 'socialpub daemon start --port 9000'],
  );
  examples(
    daemon
      .command('stop')
      .description('stop the background daemon (SIGTERM, then SIGKILL after 10 s)')
      .action(async () => (await import('./daemon/stop')).daemonStop(kit.ctx())),
    ['socialpub daemon stop'],
  );
  examples(
    daemon
      .command('status')
      .description('is it running, where, and how is its scheduler')
      .action(async () => (await import('./daemon/status')).daemonStatus(kit.ctx())),
    ['socialpub daemon status', 'socialpub daemon status --json'],
  );
  examples(
    daemon
      .command('logs')
      .description("print the background daemon's log")
      .option('-n, --lines <n>', 'last N lines', parseCount, 50)
      .option('-f, --follow', 'keep printing new lines until Ctrl-C')
      .action(async (o) => (await import('./daemon/logs')).daemonLogs(kit.ctx(), { lines: o.lines, follow: o.follow === true })),
    ['socialpub daemon logs -n 100', 'socialpub daemon logs --follow'],
  );
  examples(
    withListenOptions(daemon.command('run').description('run the daemon in the foreground (logs to stderr; Ctrl-C stops it cleanly)'))
      .option('--behind-proxy', 'listen on a non-loopback address behind a TLS proxy (requires X-Forwarded-Proto: https)')
      .option('--tls-cert <file>', 'TLS certificate (for a non-loopback address)')
      .option('--tls-key <file>', 'TLS private key')
      .action(async (o) => (await import('./daemon/run')).daemonRun(kit.ctx(), o)),
    ['socialpub daemon run', 'socialpub daemon run --host 0.0.0.0 --port 443 --tls-cert cert.pem --tls-key key.pem'],
  );
}
