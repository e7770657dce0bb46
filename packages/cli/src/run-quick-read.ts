import { Ctx } from './context';
import { EXIT } from './errors';
import { actionFailure, printFailure } from './failure-output';
import type { Io } from './io';
import { quickCommandFlags, type QuickRead } from './quick-read';

/**
 * Runs a quick read (quick-read.ts): the command's own action with the context runCli
 * would give it, its failure reported as runCli reports it. Returns the exit code.
 */
export async function runQuickRead(read: QuickRead, argv: readonly string[], io: Io): Promise<number> {
  const ctx = new Ctx(io, read.globals);
  try {
    if (read.command === 'schedule list') await (await import('./commands/schedule/list')).scheduleList(ctx, read.options);
    else if (read.command === 'schedule show') await (await import('./commands/schedule/show')).scheduleShow(ctx, { jobId: read.jobId, follow: read.follow });
    else await (await import('./commands/status')).status(ctx, { id: read.id });
    return EXIT.ok;
  } catch (err) {
    return printFailure(io, argv, await actionFailure(err, quickCommandFlags(read.command), io, read.globals, `socialpub ${read.command}`));
  }
}
