import { useEffect, useState } from 'preact/hooks';
import { get, message, post as postJson } from '../lib/api';
import { platformName } from '../lib/names';
import { formatInZone } from '../lib/time';
import type { InboxList, InboxReplyResponse } from '../lib/types';
import { FeedbackLine, type Feedback } from './notice';

/**
 * Review's replies to comments that wait for a person (an agent wrote them: through MCP
 * while agent-approval is on, or with an agent key), beside the posts that wait: the comment
 * they answer and the reply, each approved (sent once) or declined here.
 */
export function HeldReplies({ zone, version, onChange }: { zone: string; version: number; onChange(): void }) {
  const [page, setPage] = useState<InboxList | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const load = async () => {
    try {
      setPage(await get<InboxList>('/inbox?reply_state=pending_approval&limit=200'));
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [version]);

  const decide = async (replyId: string, how: 'approve' | 'reject') => {
    try {
      setFeedback({ kind: 'ok', text: (await postJson<InboxReplyResponse>(`/inbox/replies/${encodeURIComponent(replyId)}/${how}`)).message });
      await load();
      onChange();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };

  const held = (page?.items ?? []).flatMap((it) => it.replies.filter((r) => r.state === 'pending_approval').map((r) => ({ it, r })));
  if (held.length === 0 && !feedback) return null;
  return (
    <section aria-labelledby="held-replies-h">
      <h2 id="held-replies-h">Replies waiting for approval</h2>
      <FeedbackLine value={feedback} />
      {held.map(({ it, r }) => (
        <article class="card" key={r.id} aria-label={`Reply to @${it.author.handle}`}>
          <p class="muted">
            @{it.author.handle} on {platformName(it.platform)}, {formatInZone(it.created_at, zone)}, under {it.job_id}:
          </p>
          <blockquote class="caption-text">{it.text}</blockquote>
          <p>
            Reply ({r.source}): <span class="caption-text">{r.text}</span>
          </p>
          <div class="actions">
            <button type="button" class="primary" onClick={() => void decide(r.id, 'approve')}>
              Approve reply
            </button>{' '}
            <button type="button" onClick={() => void decide(r.id, 'reject')}>
              Decline reply
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
