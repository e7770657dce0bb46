import type { Ctx } from '../../context';
import { withAdmin } from '../../local/admin';

/** `socialpub sandbox endpoints`: the origin each simulated host is served at (the daemon's last start). */
export async function sandboxEndpoints(ctx: Ctx): Promise<void> {
  const { readSandboxEndpoints } = await import('../../local/daemon-extras');
  const endpoints = await withAdmin(await ctx.dataDir(), (admin) => readSandboxEndpoints(admin.store.db));
  const rows = Object.entries(endpoints).map(([host, origin]) => ({ host, origin }));
  ctx.log.result({ endpoints }, () =>
    ctx.log.table(
      rows,
      [
        { header: 'HOST', value: (r) => r.host },
        { header: 'ORIGIN', value: (r) => r.origin },
      ],
      'no simulator origins yet: start the daemon (socialpub up) first',
    ),
  );
}
