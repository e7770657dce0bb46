import { collect, examples, parseCount, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub schedule list|show|retime|share|cancel|approve|reject|request-changes|comment|comments`. */
export function defineSchedule(program: Program, kit: Kit): void {
  const schedule = examples(program.command('schedule').description('scheduled and past jobs'), [
    'socialpub schedule list --status scheduled',
    'socialpub schedule show job_abc123',
    'socialpub schedule retime job_abc123 --at +2h',
    'socialpub schedule cancel job_abc123',
  ]);
  examples(
    schedule
      .command('list')
      .description('list jobs by time as a table')
      .option('--status <status>', 'all, pending_approval, changes_requested, scheduled, publishing, published, partially_published, failed, cancelled, needs_review, removed', 'all')
      .option('--limit <n>', 'at most N jobs (default 50)', parseCount)
      .option('--all', 'every job, however many')
      .option('--cursor <cursor>', 'continue after a previous listing (its next_cursor)')
      .action(async (o) => (await import('./schedule/list')).scheduleList(kit.ctx(), { ...o, all: o.all === true })),
    ['socialpub schedule list', 'socialpub schedule list --status scheduled --json', 'socialpub schedule list --all --json | jq ".posts | length"'],
  );
  examples(
    schedule
      .command('show')
      .description('one job with every target')
      .argument('<job_id>', 'the job id (job_…)')
      .option('--follow', 'print each event of the job as it happens, until the job settles')
      .action(async (jobId, o) => (await import('./schedule/show')).scheduleShow(kit.ctx(), { jobId, follow: o.follow === true })),
    ['socialpub schedule show job_abc123', 'socialpub schedule show job_abc123 --follow'],
  );
  examples(
    schedule
      .command('retime')
      .description('move a job: offsets follow the new time, absolute times stay')
      .argument('<job_id>', 'the job id')
      .option('--at <time>', 'the new time (ISO, or +30m/+2h from now)')
      .option('--offset <key=when>', 'replace the per type/platform times (repeatable)', collect)
      .option('--tz <zone>', 'IANA zone: --at without offset is a wall time there; alone, the job keeps its wall time in that zone')
      .action(async (jobId, o) => (await import('./schedule/retime')).scheduleRetime(kit.ctx(), { jobId, at: o.at, offset: o.offset ?? [], tz: o.tz })),
    ['socialpub schedule retime job_abc123 --at 2026-12-26T09:00:00Z', 'socialpub schedule retime job_abc123 --at +2h', 'socialpub schedule retime job_abc123 --at "2026-12-26 09:00" --tz Europe/Berlin'],
  );
  examples(
    schedule
      .command('share')
      .description('a review link for one job or several: anyone with it approves, rejects or asks for changes (72 h unless --expires-in)')
      .argument('<job_id...>', 'the job ids (job_…)')
      .option('--expires-in <hours>', 'hours the link works (default 72, at most 720)', parseCount)
      .action(async (jobIds, o) => (await import('./schedule/share')).scheduleShare(kit.ctx(), { jobIds, ...(o.expiresIn !== undefined ? { expiresInHours: o.expiresIn } : {}) })),
    ['socialpub schedule share job_abc123', 'socialpub schedule share job_abc123 job_def456 --expires-in 24 --json'],
  );
  for (const [action, description] of [
    ['cancel', 'cancel every target not yet started'],
    ['approve', 'approve a job held for approval'],
    ['reject', 'reject a job held for approval (its targets are cancelled)'],
  ] as const) {
    examples(
      schedule
        .command(action)
        .description(description)
        .argument('<job_id>', 'the job id')
        .action(async (jobId) => (await import('./schedule/transition')).scheduleTransition(kit.ctx(), { action, jobId })),
      [`socialpub schedule ${action} job_abc123`],
    );
  }
  examples(
    schedule
      .command('request-changes')
      .description('ask for changes to a job held for approval: it waits in changes_requested until its content is edited')
      .argument('<job_id>', 'the job id')
      .requiredOption('-m, --message <text>', 'what should change (kept in the job\'s comments)')
      .action(async (jobId, o) => (await import('./schedule/revise')).scheduleRequestChanges(kit.ctx(), { jobId, message: o.message })),
    ['socialpub schedule request-changes job_abc123 -m "Say 25% off, not 20%"'],
  );
  examples(
    schedule
      .command('comment')
      .description("add a comment to a job's thread")
      .argument('<job_id>', 'the job id')
      .requiredOption('-m, --message <text>', 'the comment')
      .action(async (jobId, o) => (await import('./schedule/revise')).scheduleComment(kit.ctx(), { jobId, message: o.message })),
    ['socialpub schedule comment job_abc123 -m "Fixed the price"'],
  );
  examples(
    schedule
      .command('comments')
      .description("a job's approval history (who decided, when, from where) and its comments")
      .argument('<job_id>', 'the job id')
      .action(async (jobId) => (await import('./schedule/revise')).scheduleComments(kit.ctx(), { jobId })),
    ['socialpub schedule comments job_abc123', 'socialpub schedule comments job_abc123 --json'],
  );
}
