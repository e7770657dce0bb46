/**
 * Manages scheduled posts: schedules two (one held for approval), walks every scheduled
 * post with `for await`, moves one an hour later, approves the held one and cancels the
 * other, handling a 409 the way a script should.
 *
 *   SOCIALPUB_BASE_URL=http://127.0.0.1:8787 SOCIALPUB_API_KEY=sp_... \
 *     node --conditions=@socialpub/source --import tsx examples/manage-scheduled.ts
 */
import { pathToFileURL } from 'node:url';
import { ConflictError, SocialPub, type Post } from '@socialpub/sdk';

export interface ManageOptions {
  client?: SocialPub;
  log?: (line: string) => void;
}

export interface ManageResult {
  retimed: Post;
  approved: Post;
  cancelledJobId: string;
  /** Every post the list showed as scheduled or pending approval. */
  listed: string[];
}

const hoursFromNow = (h: number) => new Date(Date.now() + h * 3_600_000).toISOString();

export async function manageScheduled({ client = new SocialPub(), log = console.log }: ManageOptions = {}): Promise<ManageResult> {
  const a = await client.content.publish({ caption: 'Weekly update', platforms: ['twitter'], scheduled_for: hoursFromNow(24) });
  const b = await client.content.publish({ caption: 'Announcement, needs a second pair of eyes', platforms: ['twitter'], scheduled_for: hoursFromNow(25), require_approval: true });
  log(`scheduled ${a.job_id} (${a.status}) and ${b.job_id} (${b.status})`);

  // One page is `await client.scheduled.list()`; `for await` walks every page.
  const listed: string[] = [];
  for (const status of ['scheduled', 'pending_approval'] as const) {
    for await (const post of client.scheduled.list({ status, limit: 50 })) {
      listed.push(post.job_id);
      log(`  ${post.status.padEnd(16)} ${post.scheduled_for}  ${post.job_id}  ${post.caption.slice(0, 40)}`);
    }
  }

  // Re-timing moves the base; offsets follow it, absolute times stay.
  const current = (await client.scheduled.get(a.job_id)).post;
  const later = new Date(Date.parse(current.scheduled_for ?? hoursFromNow(24)) + 3_600_000).toISOString();
  const { post: retimed } = await client.scheduled.update(a.job_id, { scheduled_for: later });
  log(`moved ${a.job_id} to ${retimed.scheduled_for}`);

  const { post: approved } = await client.scheduled.approve(b.job_id);
  log(`approved ${b.job_id}: now ${approved.status}`);

  await client.scheduled.cancel(a.job_id);
  log(`cancelled ${a.job_id}`);
  try {
    await client.scheduled.update(a.job_id, { scheduled_for: hoursFromNow(48) });
  } catch (error) {
    // A cancelled (or already published) post has nothing left to move: the daemon says 409.
    if (!(error instanceof ConflictError)) throw error;
    log(`as expected, ${a.job_id} can no longer be moved: ${error.message}`);
  }
  return { retimed, approved, cancelledJobId: a.job_id, listed };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  manageScheduled().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
