import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button';
import { Notice, StatusBadge } from '../components/notice';
import { TargetTimes } from '../components/post-view';
import { PostPreviews } from '../platforms/post-previews';
import { ApiError, call, message } from '../lib/api';
import { browserZone } from '../lib/time';
import type { Post, PublicReview, ReviewDecision } from '../lib/types';
import '../styles.css';

/**
 * The public review page (/r/{token}): no account, no cookie. The token in the address
 * grants one thing — approve or reject these posts, with a comment.
 */
const token = decodeURIComponent(location.pathname.split('/').filter(Boolean)[1] ?? '');
const base = `/review-links/public/${encodeURIComponent(token)}`;

function ReviewLinkPage() {
  const zone = browserZone();
  const [data, setData] = useState<PublicReview | null>(null);
  const [error, setError] = useState('');
  const load = () =>
    call<PublicReview>('GET', base, undefined, { public: true })
      .then(setData)
      .catch((e: unknown) => setError(e instanceof ApiError && (e.status === 410 || e.status === 404) ? 'This review link has expired or was revoked.' : message(e)));
  useEffect(() => {
    void load();
  }, []);
  return (
    <main id="main" class="narrow wide">
      <h1>Review posts</h1>
      {error && <Notice kind="error">{error}</Notice>}
      {data && (
        <p class="muted">
          Approve, reject or request changes to each post; your comment goes to its owner. Times are in {zone}. This link expires{' '}
          {new Date(data.expires_at).toLocaleString('en-GB', { timeZone: zone, timeZoneName: 'short' })}.
        </p>
      )}
      {data?.posts.map((p) => (
        <PublicCard key={p.job_id} post={p} zone={zone} decision={data.decisions.filter((d) => d.job_id === p.job_id).pop()} onDone={load} onGone={() => setError('This review link has expired or was revoked.')} />
      ))}
    </main>
  );
}

function PublicCard({ post, zone, decision, onDone, onGone }: { post: Post; zone: string; decision: ReviewDecision | undefined; onDone(): void; onGone(): void }) {
  const [comment, setComment] = useState('');
  const [error, setError] = useState('');
  const decide = async (d: 'approve' | 'reject' | 'request_changes') => {
    if (d === 'request_changes' && !comment.trim()) {
      setError('Say in the comment what should change, then ask for changes.');
      return;
    }
    setError('');
    try {
      const body = { job_id: post.job_id, decision: d, version: post.version ?? 1, ...(comment.trim() ? { comment: comment.trim() } : {}) };
      await call('POST', `${base}/decisions`, body, { public: true });
      onDone();
    } catch (e) {
      if (e instanceof ApiError && e.status === 410) onGone();
      else if (e instanceof ApiError && e.status === 409) {
        // Edited since this page read it: show what it says now, and decide on that.
        setError('This post was changed since you opened the page; it now shows the current version. Please review it again.');
        onDone();
      } else setError(message(e));
    }
  };
  const title = post.caption.split('\n')[0]!.slice(0, 80);
  const open = post.status === 'pending_approval';
  return (
    <article class="card" aria-label={`Post ${title}`}>
      <header class="card-head">
        <h2 class="card-title">{title}</h2> <StatusBadge status={post.status} />
      </header>
      <TargetTimes post={post} zone={zone} />
      <PostPreviews post={post} />
      {decision && (
        <p role="status">
          Decision: {decision.decision === 'approve' ? 'approved' : decision.decision === 'reject' ? 'rejected' : 'changes requested'}
          {decision.comment ? <span class="caption-text"> — {decision.comment}</span> : null}
        </p>
      )}
      {open && (
        <form class="column" onSubmit={(e) => e.preventDefault()}>
          <label class="column">
            Comment for {title}
            <textarea rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
          </label>
          <div class="actions">
            <button type="button" class="primary" onClick={() => void decide('approve')}>
              Approve
            </button>
            <button type="button" onClick={() => void decide('request_changes')}>
              Request changes
            </button>
            <ConfirmButton
              class="danger"
              label="Reject"
              title={`Reject “${title}”?`}
              describe={<p>The post will not be published; its owner sees your comment. Only the owner can make a new one.</p>}
              keepLabel="Go back"
              confirmLabel="Reject the post"
              onConfirm={() => decide('reject')}
            >
              <label class="column">
                Why (for the owner)
                <textarea rows={2} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
              </label>
            </ConfirmButton>
          </div>
        </form>
      )}
      {error && <Notice kind="error">{error}</Notice>}
    </article>
  );
}

render(<ReviewLinkPage />, document.getElementById('app')!);
