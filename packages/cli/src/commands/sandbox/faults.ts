import { parseSandboxFaultsList, SANDBOX_FAULT_SCOPES, type SandboxFaults, type SandboxFaultScope, type SandboxFaultSpec, type SandboxFaultsResponse } from '@socialpub/core';
import type { Ctx } from '../../context';
import { UsageError } from '../../errors';

/**
 * `socialpub sandbox faults set <fault...>`: lays the faults over the caller's (or, with
 * `--replace`, replaces them), in SOCIALPUB_SANDBOX_FAULTS's syntax: `[platform:]kind=share`
 * with kinds 5xx, 429, timeout, reset, unanswered, and `latency=MIN-MAX`.
 */
export async function sandboxFaultsSet(ctx: Ctx, { faults, replace }: { faults: string[]; replace?: boolean | undefined }): Promise<void> {
  let given: SandboxFaults;
  try {
    given = parseSandboxFaultsList(faults.join(','), 'faults');
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  if (Object.keys(given).length === 0) throw new UsageError('give at least one fault, e.g. twitter:429=0.5 or latency=200-400');
  const client = await ctx.client();
  const current = replace ? {} : (await client.sandbox.faults()).faults;
  const merged: SandboxFaults = { ...current };
  for (const [scope, spec] of Object.entries(given) as [SandboxFaultScope, SandboxFaultSpec][]) merged[scope] = { ...merged[scope], ...spec };
  show(ctx, await client.sandbox.setFaults(merged));
}

/** `socialpub sandbox faults show`: the caller's faults and those the daemon sets for everyone. */
export async function sandboxFaultsShow(ctx: Ctx): Promise<void> {
  show(ctx, await (await ctx.client()).sandbox.faults());
}

/** `socialpub sandbox faults clear [--platform P]`: all of the caller's faults, or one platform's. */
export async function sandboxFaultsClear(ctx: Ctx, { platform }: { platform?: string | undefined }): Promise<void> {
  const client = await ctx.client();
  if (platform === undefined) return show(ctx, await client.sandbox.clearFaults());
  const scope = platform.trim().toLowerCase() as SandboxFaultScope;
  if (!(SANDBOX_FAULT_SCOPES as readonly string[]).includes(scope)) throw new UsageError(`unknown platform "${platform}" (${SANDBOX_FAULT_SCOPES.join(', ')})`);
  const rest = { ...(await client.sandbox.faults()).faults };
  delete rest[scope];
  show(ctx, await client.sandbox.setFaults(rest));
}

const pct = (v: number | undefined) => (v === undefined ? '' : `${Math.round(v * 1000) / 10}%`);

function show(ctx: Ctx, res: SandboxFaultsResponse): void {
  const rows = [
    ...Object.entries(res.global).map(([scope, spec]) => ({ who: 'everyone', scope, spec: spec! })),
    ...Object.entries(res.faults).map(([scope, spec]) => ({ who: 'you', scope, spec: spec! })),
  ];
  ctx.log.result(res, () =>
    ctx.log.table(
      rows,
      [
        { header: 'FOR', value: (r) => r.who },
        { header: 'PLATFORM', value: (r) => r.scope },
        { header: 'LATENCY', value: (r) => (r.spec.latency_ms ? `${r.spec.latency_ms.min}-${r.spec.latency_ms.max} ms` : '') },
        { header: '5XX', value: (r) => pct(r.spec.server_error) },
        { header: '429', value: (r) => pct(r.spec.rate_limited) },
        { header: 'TIMEOUT', value: (r) => pct(r.spec.timeout) },
        { header: 'RESET', value: (r) => pct(r.spec.reset) },
        { header: 'UNANSWERED', value: (r) => pct(r.spec.unanswered) },
      ],
      'no sandbox faults: the simulators answer like platforms on a perfect day',
    ),
  );
}
