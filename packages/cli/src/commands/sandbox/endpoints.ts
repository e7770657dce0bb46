import type { Ctx } from '../../context';
import { readAdmin } from '../../local/admin';

/**
 * `socialpub sandbox endpoints`: the origins each simulated host is served at (the last
 * start of the simulators): plain HTTP, and https with the data dir's self-signed certificate.
 */
export async function sandboxEndpoints(ctx: Ctx): Promise<void> {
  const { readSandboxEndpoints, readSandboxHttpsEndpoints, sandboxCertFile, openSandboxReader, sandboxDbPath, adminDatabase } = await import('../../local/daemon-extras');
  const dataDir = await ctx.dataDir();
  // What the simulators' own process (or `sandbox serve`) last recorded in sandbox.db, else
  // what a daemon serving them in its own process recorded in its database.
  const own = openSandboxReader(sandboxDbPath(dataDir, adminDatabase(dataDir)));
  let recorded: { endpoints: Record<string, string>; https: Record<string, string> } | null = null;
  if (own) {
    try {
      recorded = { endpoints: readSandboxEndpoints(own.settings), https: readSandboxHttpsEndpoints(own.settings) };
    } finally {
      own.close();
    }
  }
  const { endpoints, https } =
    recorded && Object.keys(recorded.endpoints).length > 0
      ? recorded
      : await readAdmin(dataDir, (admin) => ({ endpoints: readSandboxEndpoints(admin.store.settings), https: readSandboxHttpsEndpoints(admin.store.settings) }));
  const rows = Object.entries(endpoints).map(([host, origin]) => ({ host, origin, https: https[host] ?? '' }));
  const caFile = Object.keys(https).length > 0 ? sandboxCertFile(dataDir) : null;
  ctx.log.result({ endpoints, https_endpoints: https, ca_file: caFile }, () => [
    ...ctx.log.table(
      rows,
      [
        { header: 'HOST', value: (r) => r.host },
        { header: 'ORIGIN', value: (r) => r.origin },
        { header: 'HTTPS', value: (r) => r.https },
      ],
      'no simulator origins yet: start the daemon (socialpub up) first',
    ),
    ...(caFile ? ['', `https origins present the self-signed certificate ${caFile}: trust it (e.g. NODE_EXTRA_CA_CERTS=${caFile})`] : []),
  ]);
}
