import type { Ctx } from '../context';

/** `socialpub platforms`: what each platform accepts and whether it is connected. */
export async function platforms(ctx: Ctx): Promise<void> {
  const client = await ctx.client();
  const res = await client.platforms.list();
  ctx.log.result(res.platforms, () =>
    ctx.log.table(res.platforms, [
      { header: 'PLATFORM', value: (p) => p.platform },
      { header: 'TYPES', value: (p) => p.types.map((t) => (t === p.default_type ? `${t}*` : t)).join(', ') },
      { header: 'CAPTION', value: (p) => `${p.caption.max}` },
      { header: 'MEDIA', value: (p) => (p.pulls_media ? 'public URL' : 'uploaded') },
      {
        header: 'CONNECTION',
        value: (p) => (p.connection ? `${p.connection.mode} ${p.connection.status}${p.connection.account ? ` (${p.connection.account})` : ''}` : 'not connected'),
        style: (s, p) => (!p.connection ? ctx.log.dim(s) : p.connection.status === 'active' ? ctx.log.green(s) : ctx.log.red(s)),
      },
    ])
      .concat([ctx.log.dim('* default type')])
      .concat(
        res.platforms.flatMap((p) =>
          p.api_version
            ? [ctx.log.dim(`${p.platform} API version ${p.api_version.version} (${p.api_version.source.replace('_', ' ')}${p.api_version.previous ? ` from retired ${p.api_version.previous}` : ''}; pin with ${p.api_version.setting})`)]
            : [],
        ),
      ),
  );
}
