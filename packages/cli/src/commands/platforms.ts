import type { Ctx } from '../context';

/** `socialpub platforms`: what each platform accepts and whether it is connected. */
export async function platforms(ctx: Ctx): Promise<void> {
  const client = await ctx.client();
  const res = await client.platforms.list();
  // The table shows each platform's default account; a platform with more says which (read only for people: --json is GET /platforms as it is).
  const labels = ctx.log.json ? new Map<string, string[]>() : await accountLabels(ctx);
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
        [...labels].filter(([, l]) => l.length > 1).map(([platform, l]) =>
          ctx.log.dim(`${platform}: ${l.length} accounts (${l.join(', ')}); the table shows the default one, -p ${platform}:<label> names another (socialpub connections list)`),
        ),
      )
      .concat(
        res.platforms.flatMap((p) =>
          p.api_version
            ? [ctx.log.dim(`${p.platform} API version ${p.api_version.version} (${p.api_version.source.replace('_', ' ')}${p.api_version.previous ? ` from retired ${p.api_version.previous}` : ''}; pin with ${p.api_version.setting})`)]
            : [],
        ),
      ),
  );
}

/** Each platform's account labels, the default first (GET /connections); none when the key may not list them. */
async function accountLabels(ctx: Ctx): Promise<Map<string, string[]>> {
  const labels = new Map<string, string[]>();
  try {
    const { data } = await (await ctx.client()).connections.list();
    for (const c of [...data].sort((a, b) => Number(b.is_default ?? false) - Number(a.is_default ?? false))) {
      labels.set(c.platform, [...(labels.get(c.platform) ?? []), c.label ?? 'default']);
    }
  } catch {
    // The table stands without it.
  }
  return labels;
}
