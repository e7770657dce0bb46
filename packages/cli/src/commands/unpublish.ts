import type { TakedownTarget, UnpublishResponse } from '@socialpub/sdk';
import type { Ctx } from '../context';
import { CliError, EXIT, InterruptedError } from '../errors';

export interface UnpublishOptions {
  jobId: string;
  /** Skip the confirmation. */
  yes: boolean;
}

const MARK: Record<TakedownTarget['result'], string> = {
  removed: '✔',
  already_removed: '✔',
  not_supported: '•',
  not_published: '•',
  failed: '✖',
  unknown: '?',
};

function line(ctx: Ctx, t: TakedownTarget): string {
  const mark = t.result === 'removed' || t.result === 'already_removed' ? ctx.log.green(MARK[t.result]) : t.result === 'failed' || t.result === 'unknown' ? ctx.log.red(MARK[t.result]) : ctx.log.dim(MARK[t.result]);
  return `  ${mark} ${t.platform}.${t.type}  ${t.result.replace('_', ' ')}${t.post_id ? ctx.log.dim(` (${t.post_id})`) : ''}: ${t.message}`;
}

/**
 * `socialpub unpublish <job_id>`: shows the published posts, asks (unless --yes; without a
 * terminal or under --json --yes is required), then takes them down. Exit 0 when every
 * post that can go is gone (posts a platform cannot delete are listed, not an error); 8
 * (incomplete) when a deletion failed or its outcome is unknown: run it again.
 */
export async function unpublish(ctx: Ctx, o: UnpublishOptions): Promise<void> {
  const client = await ctx.client();
  if (!o.yes) {
    const { post } = await client.scheduled.get(o.jobId);
    const live = post.targets.filter((t) => t.status === 'published');
    if (live.length > 0) {
      ctx.log.info([`${o.jobId} has ${live.length} published post${live.length === 1 ? '' : 's'}:`, ...live.map((t) => `  ${t.platform}.${t.type}  ${t.post_url ?? t.post_id ?? ''}`)].join('\n'));
    }
    const ok = await ctx.prompts.confirm('Delete them from the platforms that allow it? This cannot be undone.', '--yes', { default: false });
    if (!ok) throw new InterruptedError('nothing taken down');
  }
  const res: UnpublishResponse = await client.scheduled.unpublish(o.jobId);
  const { success: _ok, ...data } = res;
  const incomplete = res.targets.filter((t) => t.result === 'failed' || t.result === 'unknown');
  if (incomplete.length > 0) {
    if (!ctx.log.json) ctx.log.info([res.message, ...res.targets.map((t) => line(ctx, t))].join('\n'));
    throw new CliError('incomplete', `${incomplete.length} take-down${incomplete.length === 1 ? '' : 's'} did not complete (${incomplete.map((t) => `${t.platform}.${t.type}: ${t.result}`).join(', ')})`, EXIT.incomplete, {
      hint: `run \`socialpub unpublish ${o.jobId} --yes\` again: it retries, and looks an unknown one up before deleting`,
      data,
    });
  }
  ctx.log.result(data, () => [`${res.changed ? ctx.log.green('✔') : ctx.log.dim('•')} ${res.message}`, ...res.targets.map((t) => line(ctx, t))]);
}
