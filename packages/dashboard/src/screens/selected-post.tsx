import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button';
import { SourceLine, TargetTimes } from '../components/post-view';
import { message, patch, post as postJson } from '../lib/api';
import type { Post, UpdateResponse } from '../lib/types';
import { toApiWall, wallTime } from '../lib/time';
import { PostPreviews } from '../platforms/post-previews';

/**
 * The calendar entry a person clicked, in a panel at the side of the window (in view
 * wherever the calendar was scrolled; the focus moves to its heading; Close hides it): the
 * post with its previews, and for a post waiting for a decision Approve, Reject and Request
 * changes, as in Review.
 */
export function SelectedPost({ post, zone, onClose, onDone, onError }: { post: Post; zone: string; onClose(): void; onDone(text: string): Promise<void>; onError(text: string): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [asking, setAsking] = useState(false);
  const [ask, setAsk] = useState('');
  const [reason, setReason] = useState('');
  const q = `?job_id=${encodeURIComponent(post.job_id)}`;
  useEffect(() => {
    heading.current?.focus();
  }, [post.job_id]);
  const deciding = post.targets.some((t) => t.status === 'pending_approval' || t.status === 'changes_requested');
  const act = async (fn: () => Promise<{ message: string }>) => {
    try {
      await onDone((await fn()).message);
    } catch (e) {
      onError(message(e));
    }
  };
  return (
    <aside class="card side-panel" aria-label="Selected post">
      <p class="side-panel-head">
        <span class="muted">Selected post</span>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </p>
      <h2 ref={heading} tabIndex={-1} class="caption-text">
        {post.caption.split('\n')[0]!.slice(0, 80)}
      </h2>
      <SourceLine post={post} zone={zone} />
      <TargetTimes post={post} zone={zone} />
      {deciding && (
        <div class="actions">
          <button type="button" class="primary" onClick={() => void act(() => postJson(`/content/scheduled/approve${q}`))}>
            Approve
          </button>
          <ConfirmButton
            class="danger"
            label="Reject"
            title="Reject this post?"
            describe={<p>It will not be published. A rejected post cannot be approved again.</p>}
            keepLabel="Go back"
            confirmLabel="Reject"
            onConfirm={() => act(() => postJson(`/content/scheduled/reject${q}`, reason.trim() ? { reason: reason.trim() } : undefined))}
          >
            <label class="column">
              Reason (optional)
              <input type="text" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
            </label>
          </ConfirmButton>
          {post.status === 'pending_approval' && (
            <button type="button" aria-expanded={asking} onClick={() => setAsking(!asking)}>
              Request changes
            </button>
          )}
        </div>
      )}
      {asking && (
        <form class="inline-form column" onSubmit={(e) => {
          e.preventDefault();
          void act(() => postJson(`/content/scheduled/request-changes${q}`, { comment: ask, version: post.version }));
        }}>
          <label>
            What should change
            <textarea rows={3} required value={ask} onInput={(e) => setAsk(e.currentTarget.value)} />
          </label>
          <button type="submit">Send request for changes</button>
        </form>
      )}
      {post.scheduled_for && post.targets.some((t) => t.status === 'pending_approval' || t.status === 'scheduled') && (
        <RetimeForm post={post} zone={zone} onDone={onDone} onError={(text) => onError(`Not moved: ${text}`)} />
      )}
      <PostPreviews post={post} />
    </aside>
  );
}

/** The keyboard's way to move a post (the same PATCH as a drag): a new local time in the zone. */
function RetimeForm({ post, zone, onDone, onError }: { post: Post; zone: string; onDone(text: string): Promise<void>; onError(text: string): void }) {
  const [when, setWhen] = useState(wallTime(post.scheduled_for!, zone));
  return (
    <form class="inline-form" onSubmit={async (e) => {
      e.preventDefault();
      try {
        const res = await patch<UpdateResponse>(`/content/scheduled?job_id=${encodeURIComponent(post.job_id)}`, { scheduled_for: toApiWall(when), timezone: zone });
        await onDone(res.message);
      } catch (err) {
        onError(message(err));
      }
    }}>
      <label>
        New time ({zone}) <input type="datetime-local" required value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
      </label>
      <button type="submit">Save time</button>
    </form>
  );
}
