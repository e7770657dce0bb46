import { PLATFORMS, platformDescriptions, platformsWithInWords } from '@socialpub/core';
import { collect, examples, parseCount, type Kit } from '../command-kit';
import type { Program } from '../program';

/** The platforms' `--option` examples, from their descriptions. */
const optionExamples = () => platformDescriptions().flatMap((d) => d.cli.optionExamples).join(', ');

/** The platforms whose first comment is a comment (not a self-reply). */
const commentPlatforms = () =>
  platformDescriptions()
    .filter((d) => d.followUps.firstComment && !d.followUps.commentIsPost)
    .map((d) => d.id)
    .join(', ');

/** `socialpub publish [caption]`: publish now or schedule; a wizard in a terminal. */
export function definePublish(program: Program, kit: Kit): void {
  examples(
    program
      .command('publish')
      .description('publish now or schedule; asks for what is missing when run in a terminal')
      .argument('[caption]', 'the caption (default for every platform)')
      .option('-p, --platforms <list>', `comma-separated platforms, e.g. instagram,twitter (${PLATFORMS.join(', ')}); repeatable`, (value: string, previous?: string) => (previous ? `${previous},${value}` : value))
      .option('--caption-for <platform=text>', 'a caption for one platform (repeatable)', collect)
      .option('--type <platform=types>', 'content types for a platform, e.g. instagram=story,feed (repeatable)', collect)
      .option('--media <url|file>', 'a media URL or a local file (repeatable)', collect)
      .option('--now', 'publish now')
      .option('--at <time>', 'when: ISO time (2026-12-25T10:00:00Z; no zone = local time) or +30m/+2h from now')
      .option('--offset <key=when>', 'per type/platform time: story=+0h, feed=+1h, instagram.story=<ISO> (repeatable)', collect)
      .option('--option <platform.field=value>', `a platform option, typed from its schema: ${optionExamples()} (a list item with a comma: ["a, b","c"]) (repeatable; see \`socialpub platforms\` and docs/cli.md)`, collect)
      .option('--thread <text>', `a thread part published as a reply to the part before, on ${platformsWithInWords('thread')} (repeatable, in order)`, collect)
      .option('--thread-media <files>', 'media of the --thread of the same rank: URLs or local files, comma-separated; - for none (repeatable)', collect)
      .option('--first-comment <text>', `a comment posted under the post once it is out (${commentPlatforms()}; a self-reply on ${platformsWithInWords('commentIsPost')})`)
      .option('--first-comment-for <platform=text>', 'a first comment for one platform (repeatable)', collect)
      .option('--require-approval', 'hold the job until `schedule approve`')
      .option('--wait', 'follow every target to its end and print post URLs')
      .option('-y, --yes', 'do not ask for confirmation')
      .option('--idempotency-key <key>', 'make retries of this command create one job')
      .option('--tz <zone>', 'IANA time zone: --at/--offset/--until times without offset are wall times there (default: your timezone setting)')
      .option('--queue', 'take the next free slot of your queue (see `socialpub queue`)')
      .option('--repeat <rule>', 'repeat: an RRULE or "daily|weekdays|weekly [on mon,thu]|monthly [on 15] [at HH:MM]"; needs --count or --until')
      .option('--count <n>', 'with --repeat: number of posts (at most 500)', parseCount)
      .option('--until <time>', 'with --repeat: last possible time')
      .action(async (caption, o) =>
        (await import('./publish')).publish(kit.ctx(), {
          ...o,
          caption,
          captionFor: o.captionFor ?? [],
          type: o.type ?? [],
          media: o.media ?? [],
          now: o.now === true,
          offset: o.offset ?? [],
          option: o.option ?? [],
          thread: o.thread ?? [],
          threadMedia: o.threadMedia ?? [],
          firstCommentFor: o.firstCommentFor ?? [],
          requireApproval: o.requireApproval === true,
          wait: o.wait === true,
          yes: o.yes === true,
        }),
      ),
    [
      'socialpub publish "hello" -p twitter --now --wait',
      'socialpub publish "Launch!" -p facebook,twitter --media ./photo.jpg --at 2026-12-25T10:00:00Z',
      'socialpub publish "Story then feed" -p instagram --type instagram=story,feed --media https://picsum.photos/id/10/1080/1350.jpg --at +1h --offset feed=+1h',
      'socialpub publish "Launch day" -p youtube --media ./launch.mp4 --now --option youtube.title="Launch day, the full story" --option youtube.privacy_status=unlisted',
      'socialpub publish "How we ship 🧵" -p twitter,threads --now --thread "1. Small changes" --thread "2. Tested" --thread-media - --thread-media ./chart.png --first-comment "Questions welcome"',
      'socialpub publish "Standup notes" -p threads --at "2026-12-25 10:00" --tz Europe/Berlin',
      'socialpub publish "Tip of the week" -p threads --repeat "weekly on mon,thu at 09:00" --count 10 --tz America/New_York',
      'socialpub publish "From the queue" -p twitter --queue',
      'socialpub publish "Our Q3 numbers" -p linkedin --type linkedin=document --media ./q3.pdf --option linkedin.document_title="Q3 in numbers" --now --wait',
      'socialpub publish "Linen, in three colours" -p pinterest --media ./a.jpg --media ./b.jpg --option pinterest.title="Linen shirts" --option pinterest.link=https://shop.example/linen --now --wait',
      'socialpub publish        # in a terminal: asks for everything',
    ],
  );
}
