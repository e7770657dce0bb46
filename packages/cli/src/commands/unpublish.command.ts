import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub unpublish <job_id>`: take a job's published posts down where the platforms allow it. */
export function defineUnpublish(program: Program, kit: Kit): void {
  examples(
    program
      .command('unpublish')
      .description('take a published job down: delete its posts on every platform that allows it (asks first)')
      .argument('<job_id>', 'the job id (job_…)')
      .option('-y, --yes', 'do not ask for confirmation (needed without a terminal and with --json)')
      .action(async (jobId, o) => (await import('./unpublish')).unpublish(kit.ctx(), { jobId, yes: o.yes === true })),
    ['socialpub unpublish job_abc123', 'socialpub unpublish job_abc123 --yes --json'],
  );
}
