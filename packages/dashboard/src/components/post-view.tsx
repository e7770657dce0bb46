import { accountTargetName, targetKey } from '../lib/account-name';
import { formatInZone } from '../lib/time';
import type { Post } from '../lib/types';
import { HoldLine } from './hold-line';
import { StatusBadge } from './notice';

/** Each target: platform (with the account's label when it is not the one labelled default), type, when it goes out in the person's zone, status, and what holds it (HoldLine). */
export function TargetTimes({ post, zone }: { post: Post; zone: string }) {
  return (
    <ul class="targets">
      {post.targets.map((t) => (
        <li key={targetKey(t)}>
          <strong>{accountTargetName(t)}</strong>{' '}
          <time dateTime={t.scheduled_for ?? undefined}>{formatInZone(t.scheduled_for, zone)}</time> <StatusBadge status={t.status} />
          <HoldLine target={t} zone={zone} />
        </li>
      ))}
    </ul>
  );
}

export function SourceLine({ post, zone }: { post: Post; zone: string }) {
  return (
    <p class="muted source">
      Created by <strong>{post.source}</strong> on {formatInZone(post.created_at, zone)} · {post.job_id}
      {post.series_id ? ` · repeat ${post.occurrence ?? ''} of ${post.series_id}` : ''}
      {post.queue_slot ? ` · queue slot ${post.queue_slot}` : ''}
    </p>
  );
}
