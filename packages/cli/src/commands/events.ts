import { accountShown } from '@socialpub/core';
import { EVENT_TYPES, type SocialpubEvent } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { UsageError } from '../errors';

/** One line for an event: time (the API's UTC instant, or as `time` shows it), id, type, job and what happened. */
export function describeEvent(ctx: Ctx, e: SocialpubEvent, time: (iso: string) => string = (iso) => iso): string {
  const d = e.data as Record<string, unknown>;
  // The account by its label (two accounts of one network tell apart), as the targets' lines show it.
  const account = typeof d.platform === 'string' ? accountShown(d.platform, typeof d.label === 'string' ? d.label : null) : '';
  const target = account && typeof d.type === 'string' ? `${account}.${d.type}` : account;
  const error = d.error && typeof d.error === 'object' ? (d.error as { message?: unknown }).message : null;
  const what = [
    target,
    typeof d.status === 'string' ? d.status : '',
    typeof d.post_url === 'string' ? d.post_url : '',
    typeof d.next_attempt_at === 'string' ? `next attempt ${time(d.next_attempt_at)}` : '',
    typeof error === 'string' ? `(${error})` : '',
    typeof d.reason === 'string' ? `(${d.reason})` : '',
  ].filter(Boolean);
  const type = e.type.endsWith('failed') || e.type.endsWith('needs_review') || e.type.endsWith('expired') || e.type.endsWith('disabled') ? ctx.log.red(e.type) : e.type.endsWith('published') ? ctx.log.green(e.type) : e.type;
  return [ctx.log.dim(time(e.timestamp)), ctx.log.dim(e.id), type, e.job_id ?? '', ...what].filter(Boolean).join('  ');
}

export interface EventsOptions {
  follow: boolean;
  type: string[];
  job?: string | undefined;
  since?: string | undefined;
}

/**
 * `socialpub events`: the events kept in the daemon's outbox (after --since), or with
 * --follow the live ones as they happen (after --since when given). One line each; under
 * --json one JSON object per line (the event as webhooks receive it).
 */
export async function events(ctx: Ctx, o: EventsOptions): Promise<void> {
  const types = o.type.flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean);
  for (const t of types) {
    if (!(EVENT_TYPES as readonly string[]).includes(t) && !(t.endsWith('.*') && EVENT_TYPES.some((k) => k.startsWith(t.slice(0, -1))))) {
      throw new UsageError(`unknown event type ${JSON.stringify(t)} (known: ${EVENT_TYPES.join(', ')}, or a prefix like target.*)`);
    }
  }
  const client = await ctx.client();
  const since = o.since ?? (o.follow ? undefined : 'evt_0');
  let n = 0;
  for await (const e of client.events.stream({
    ...(since ? { since } : {}),
    ...(types.length ? { types: types as never } : {}),
    ...(o.job ? { jobId: o.job } : {}),
    untilCaughtUp: !o.follow,
  })) {
    n++;
    if (ctx.log.json) ctx.io.stdout.write(`${JSON.stringify(e)}\n`);
    else ctx.log.line(describeEvent(ctx, e));
  }
  if (n === 0) ctx.log.info(ctx.log.dim('no events kept (they are kept 7 days by default); follow new ones with --follow'));
}
