import type { Ctx } from '../../context';
import { UsageError } from '../../errors';
import { aborted, stopSignal } from '../../local/stop-signal';

/**
 * `socialpub sandbox serve [--port N]`: only the platform simulators, in the foreground, for
 * clients that want them without a daemon (and what the daemon runs as its simulators'
 * process). They serve `/sandbox/<host>/...` at 127.0.0.1:N and each host at its own
 * origins, print where (the `sandbox endpoints --json` document plus `url`), and keep their
 * state in the data dir's database. SIGINT/SIGTERM stops them.
 */
export async function sandboxServe(ctx: Ctx, { port }: { port?: string | undefined }): Promise<void> {
  const wanted = port === undefined ? 0 : Number(port);
  if (!Number.isInteger(wanted) || wanted < 0 || wanted > 65535) throw new UsageError(`--port must be 0-65535, not ${port}`);
  const dataDir = await ctx.dataDir();
  const { serveSandbox, resolveConfig, createLogger, sandboxCertFile, SANDBOX_CHILD_ENV, SANDBOX_FAULTS_ENV } = await import('../../local/daemon-extras');
  const env = ctx.io.env as NodeJS.ProcessEnv;
  // Loopback whatever SOCIALPUB_HOST says: the simulators never listen elsewhere (and need no TLS pair for it).
  const config = resolveConfig({ dataDir, host: '127.0.0.1' }, env);
  // As the daemon's process: the faults it resolved (its flags and environment), and stop with it.
  const child = env[SANDBOX_CHILD_ENV] === '1';
  const handed = env[SANDBOX_FAULTS_ENV];
  const faults = child && handed ? (JSON.parse(handed) as typeof config.sandboxFaults) : config.sandboxFaults;
  const logger = createLogger({ level: config.logLevel, write: (line) => void ctx.io.stderr.write(`${line}\n`) });
  const served = await serveSandbox({ dataDir, dbPath: config.dbPath, port: wanted, faults: faults ?? {}, logger });
  const stop = stopSignal(ctx.io);
  try {
    const caFile = Object.keys(served.httpsEndpoints).length > 0 ? sandboxCertFile(dataDir) : null;
    const doc = { url: served.url, endpoints: served.endpoints, https_endpoints: served.httpsEndpoints, ca_file: caFile };
    if (child) {
      // One line the daemon reads; then stop when it goes (its end of stdin closes even if it was killed).
      ctx.io.stdout.write(`${JSON.stringify(doc)}\n`);
      ctx.io.stdin.on('end', () => process.kill(process.pid, 'SIGTERM')).on('error', () => undefined).resume();
    } else {
      ctx.log.result(doc, () => [
        `simulators at ${served.url}/sandbox/<host>/... ; each host at its own origin:`,
        ...ctx.log.table(
          Object.entries(served.endpoints).map(([host, origin]) => ({ host, origin, https: served.httpsEndpoints[host] ?? '' })),
          [
            { header: 'HOST', value: (r) => r.host },
            { header: 'ORIGIN', value: (r) => r.origin },
            { header: 'HTTPS', value: (r) => r.https },
          ],
        ),
        ...(caFile ? ['', `https origins present the self-signed certificate ${caFile}: trust it (e.g. NODE_EXTRA_CA_CERTS=${caFile})`, 'Ctrl-C stops them'] : []),
      ]);
    }
    await aborted(stop.signal);
  } finally {
    stop.dispose();
    await served.close();
    // The pipe from the daemon would keep the process alive.
    if (child) ctx.io.stdin.destroy();
  }
}
