import { examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub status <id>`: a job or a media task. */
export function defineStatus(program: Program, kit: Kit): void {
  examples(
    program
      .command('status')
      .description('status of a job (job_…) or a media task (task_…)')
      .argument('<id>', 'a job id or a task id')
      .action(async (id) => (await import('./status')).status(kit.ctx(), { id })),
    ['socialpub status job_abc123', 'socialpub status task_abc123 --json'],
  );
}
