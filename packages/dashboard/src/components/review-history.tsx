import type { Post } from '../lib/types';
import { formatInZone } from '../lib/time';

type Approval = NonNullable<Post['approvals']>[number];

const ACTION_WORDS: Record<Approval['action'], string> = { approved: 'Approved', rejected: 'Rejected', changes_requested: 'Changes requested' };
const SOURCE_WORDS: Record<Approval['source'], string> = { dashboard: 'the dashboard', api: 'the API', cli: 'the CLI', mcp: 'an agent (MCP)', review_link: 'a review link' };

/** "Approved by ana@example.com at 25 Dec, 10:00 from the dashboard": one decision of the history, in words. */
export function decisionText(a: Approval, zone: string): string {
  const who = a.by === null ? '' : ` by ${a.by}`;
  return `${ACTION_WORDS[a.action]}${who} at ${formatInZone(a.at, zone)} from ${SOURCE_WORDS[a.source]} (version ${a.version})`;
}

/** A post's approval history and comment thread (oldest first); nothing when it has neither. */
export function ReviewHistory({ post, zone }: { post: Post; zone: string }) {
  const approvals = post.approvals ?? [];
  const comments = post.comments ?? [];
  if (approvals.length === 0 && comments.length === 0) return null;
  return (
    <div class="review-history">
      {approvals.length > 0 && (
        <ul class="plain" aria-label={`Approval history of ${post.job_id}`}>
          {approvals.map((a, i) => (
            <li key={i}>
              {decisionText(a, zone)}
              {a.comment ? `: “${a.comment}”` : ''}
            </li>
          ))}
        </ul>
      )}
      {comments.length > 0 && (
        <details>
          <summary>
            {comments.length} comment{comments.length === 1 ? '' : 's'}
          </summary>
          <ol class="plain" aria-label={`Comments on ${post.job_id}`}>
            {comments.map((c) => (
              <li key={c.id}>
                <span class="muted">
                  {c.by ?? SOURCE_WORDS[c.source]}, {formatInZone(c.at, zone)}:
                </span>{' '}
                <span class="caption-text">{c.body}</span>
              </li>
            ))}
          </ol>
        </details>
      )}
    </div>
  );
}
