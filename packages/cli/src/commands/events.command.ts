import { collect, examples, type Kit } from '../command-kit';
import type { Program } from '../program';

/** `socialpub events [--follow] [--type T] [--job ID] [--since ID]`. */
export function defineEvents(program: Program, kit: Kit): void {
  examples(
    program
      .command('events')
      .description('what happened to your posts, media and connections: the kept events, or live ones with --follow')
      .option('-f, --follow', 'keep printing events as they happen')
      .option('-t, --type <type>', 'only this event type or prefix (target.*); repeat or comma-separate', collect)
      .option('--job <job_id>', 'only the events of this job')
      .option('--since <event_id>', 'start after this event id (evt_…)')
      .action(async (o) => (await import('./events')).events(kit.ctx(), { follow: o.follow === true, type: o.type ?? [], job: o.job, since: o.since })),
    ['socialpub events', 'socialpub events --follow --type target.published --type post.finished', 'socialpub events -f --json | jq .type'],
  );
}
