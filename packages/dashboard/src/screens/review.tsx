import { useEffect, useRef, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button';
import { HeldReplies } from '../components/held-replies';
import { CopyButton, FeedbackLine, StatusBadge, type Feedback } from '../components/notice';
import { SourceLine, TargetTimes } from '../components/post-view';
import { PostPreviews } from '../platforms/post-previews';
import { PostEditor } from '../components/post-editor';
import { PostFilters } from '../components/post-filters';
import { ReviewHistory } from '../components/review-history';
import { allPages, call, del, get, message, post as postJson } from '../lib/api';
import { hold, undo, UNDO_SECONDS, useHeldActions } from '../lib/held-actions';
import { useLiveVersion } from '../lib/live';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import { filterQuery, useUrlFilters } from '../lib/url-filters';
import type { Post, ReviewLinkCreated, ReviewLinkListed } from '../lib/types';

type Acted = { message: string; post: Post };

let heldSeq = 0;

/** Review: every post waiting for approval, with its previews and the decisions. */
export function ReviewScreen() {
  const { zone } = useApp();
  const live = useLiveVersion();
  const [posts, setPosts] = useState<Post[] | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [bulkReason, setBulkReason] = useState('');
  const [link, setLink] = useState<ReviewLinkCreated | null>(null);
  const [filters, setFilter, clearFilters] = useUrlFilters();
  const seq = useRef(0);

  const load = async () => {
    const mine = ++seq.current;
    try {
      // Waiting for a decision, then waiting for the changes a reviewer asked for (still decidable); narrowed by the filters.
      const narrowed = filterQuery({ ...filters, status: '' }, zone);
      const pending = await allPages<Post>('/content/scheduled', { ...narrowed, status: 'pending_approval', limit: 200 }, 'posts');
      const asked = await allPages<Post>('/content/scheduled', { ...narrowed, status: 'changes_requested', limit: 200 }, 'posts');
      // A newer filter's answer wins over a slower older one.
      if (mine !== seq.current) return;
      const list = [...pending, ...asked];
      setPosts(list);
      setSelected((s) => new Set([...s].filter((id) => list.some((p) => p.job_id === id))));
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [live, filters]);

  // Approve and Reject wait UNDO_SECONDS before they are sent (lib/held-actions.ts): Undo in that time sends nothing.
  const decide = (action: 'approve' | 'reject', ids: string[], what: string, reason?: string) => {
    const verb = action === 'approve' ? 'Approving' : 'Rejecting';
    hold({ key: `${action}:${ids.join(',')}:${++heldSeq}`, label: `${verb} ${what}`, jobIds: ids }, async (leaving) => {
      const done: string[] = [];
      const failed: string[] = [];
      let said = '';
      for (const id of ids) {
        try {
          const r = await call<{ message: string }>('POST', `/content/scheduled/${action}?job_id=${encodeURIComponent(id)}`, action === 'reject' && reason ? { reason } : undefined, { keepalive: leaving });
          said = r.message;
          done.push(id);
        } catch (e) {
          failed.push(`${id}: ${message(e)}`);
        }
      }
      if (leaving) return;
      const past = action === 'approve' ? 'Approved' : 'Rejected';
      setFeedback(failed.length ? { kind: 'error', text: `${past} ${done.length}; failed: ${failed.join('; ')}` } : { kind: 'ok', text: ids.length === 1 ? said : `${past} ${done.length} post${done.length === 1 ? '' : 's'}` });
      await load();
    });
    setFeedback(null);
  };
  const bulk = (action: 'approve' | 'reject') => {
    const ids = [...selected];
    setSelected(new Set());
    decide(action, ids, `${ids.length} post${ids.length === 1 ? '' : 's'}`, action === 'reject' && bulkReason ? bulkReason : undefined);
  };
  const waiting = useHeldActions();
  const waitingIds = new Set(waiting.flatMap((h) => h.jobIds));
  const shown = posts?.filter((p) => !waitingIds.has(p.job_id)) ?? null;

  const share = async () => {
    try {
      const created = await postJson<ReviewLinkCreated>('/review-links', { job_ids: [...selected] });
      setLink(created);
      setFeedback({ kind: 'ok', text: `Review link created for ${created.job_ids.length} post${created.job_ids.length === 1 ? '' : 's'}; it expires ${formatInZone(created.expires_at, zone)}` });
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };

  const toggle = (id: string, on: boolean) =>
    setSelected((s) => {
      const n = new Set(s);
      if (on) n.add(id);
      else n.delete(id);
      return n;
    });

  return (
    <section aria-labelledby="review-h">
      <h1 id="review-h">Review</h1>
      <p class="muted">Posts waiting for approval. Times are in {zone}.</p>
      <PostFilters filters={filters} set={setFilter} clear={clearFilters} />
      <FeedbackLine value={feedback} />
      {shown && shown.length > 0 && (
        <div class="toolbar bulk" role="group" aria-label="Selected posts">
          <label>
            <input
              type="checkbox"
              checked={selected.size === shown.length}
              onChange={(e) => setSelected(e.currentTarget.checked ? new Set(shown.map((p) => p.job_id)) : new Set())}
            />{' '}
            Select all
          </label>
          <span>{selected.size} selected</span>
          <button type="button" class="primary" disabled={!selected.size} onClick={() => bulk('approve')}>
            Approve selected
          </button>
          <label>
            Reason for rejecting{' '}
            <input type="text" value={bulkReason} onInput={(e) => setBulkReason(e.currentTarget.value)} />
          </label>
          <ConfirmButton
            class="danger"
            disabled={!selected.size}
            label="Reject selected"
            title={`Reject ${selected.size} post${selected.size === 1 ? '' : 's'}?`}
            describe={<p>{selected.size === 1 ? 'It' : 'They'} will not be published{bulkReason ? `, with the reason “${bulkReason}”` : ''}. A rejected post cannot be approved again.</p>}
            keepLabel="Go back"
            confirmLabel="Reject"
            onConfirm={() => bulk('reject')}
          />
          <button type="button" disabled={!selected.size} onClick={() => void share()}>
            Share for review
          </button>
        </div>
      )}
      {link?.url && (
        <p class="share">
          <label>
            Review link <input type="text" readOnly value={link.url} size={48} />
          </label>{' '}
          <CopyButton text={link.url} label="Copy link" />
        </p>
      )}
      {waiting.length > 0 && (
        <ul class="plain held" aria-label="Decisions you can undo">
          {waiting.map((h) => (
            <li key={h.key} class="notice">
              {h.label}: sent in {UNDO_SECONDS} seconds.{' '}
              <button type="button" aria-label={`Undo: ${h.label}`} onClick={() => {
                if (undo(h.key)) setFeedback({ kind: 'ok', text: `Undone: ${h.label.charAt(0).toLowerCase()}${h.label.slice(1)} was not sent` });
              }}>
                Undo
              </button>
            </li>
          ))}
        </ul>
      )}
      {posts === null && <p>Loading…</p>}
      {shown?.length === 0 && !waiting.length && <p class="empty">{Object.values(filters).some(Boolean) ? 'No post waiting for approval matches the filters.' : 'Nothing waits for approval.'}</p>}
      {shown?.map((p) => (
        <ReviewCard key={p.job_id} post={p} zone={zone} selected={selected.has(p.job_id)} onSelect={(on) => toggle(p.job_id, on)} onDecide={(action, reason) => decide(action, [p.job_id], `“${p.caption.split('\n')[0]!.slice(0, 60)}”`, reason)} onDone={(a) => {
          setFeedback({ kind: 'ok', text: a.message });
          void load();
        }} />
      ))}
      <HeldReplies zone={zone} version={live} onChange={() => void load()} />
      <ReviewLinks />
    </section>
  );
}

function ReviewCard({ post, zone, selected, onSelect, onDone, onDecide }: { post: Post; zone: string; selected: boolean; onSelect(on: boolean): void; onDone(a: Acted): void; onDecide(action: 'approve' | 'reject', reason?: string): void }) {
  const [error, setError] = useState<Feedback>(null);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [asking, setAsking] = useState(false);
  const [ask, setAsk] = useState('');
  const id = post.job_id;
  const q = `?job_id=${encodeURIComponent(id)}`;

  const act = async (fn: () => Promise<Acted>) => {
    setError(null);
    try {
      onDone(await fn());
    } catch (e) {
      setError({ kind: 'error', text: message(e) });
    }
  };
  const title = post.caption.split('\n')[0]!.slice(0, 80);
  return (
    <article class="card" aria-label={`Post ${id}`}>
      <header class="card-head">
        <label class="select">
          <input type="checkbox" checked={selected} onChange={(e) => onSelect(e.currentTarget.checked)} /> Select <span class="sr-only">{title}</span>
        </label>
        <h2 class="card-title">{title}</h2>
        {post.status === 'changes_requested' && <StatusBadge status={post.status} />}
      </header>
      <SourceLine post={post} zone={zone} />
      <ReviewHistory post={post} zone={zone} />
      <TargetTimes post={post} zone={zone} />
      <PostPreviews post={post} />
      <FeedbackLine value={error} />
      <div class="actions">
        <button type="button" class="primary" onClick={() => onDecide('approve')}>
          Approve
        </button>
        <button type="button" class="danger" aria-expanded={rejecting} onClick={() => setRejecting(!rejecting)}>
          Reject
        </button>
        {post.status === 'pending_approval' && (
          <button type="button" aria-expanded={asking} onClick={() => setAsking(!asking)}>
            Request changes
          </button>
        )}
      </div>
      {rejecting && (
        <form class="inline-form" onSubmit={(e) => {
          e.preventDefault();
          onDecide('reject', reason || undefined);
        }}>
          <label>
            Reason <input type="text" required value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </label>
          <button type="submit" class="danger">
            Reject with reason
          </button>
        </form>
      )}
      <PostEditor post={post} zone={zone} editable onSaved={(res) => onDone(res)} />
      {asking && (
        <form class="inline-form column" onSubmit={(e) => {
          e.preventDefault();
          void act(() => postJson<Acted>(`/content/scheduled/request-changes${q}`, { comment: ask, version: post.version }));
        }}>
          <label>
            What should change
            <textarea rows={3} required value={ask} onInput={(e) => setAsk(e.currentTarget.value)} />
          </label>
          <p class="muted">The post waits in “changes requested” and is not published; an edit of its caption sends it back here for approval.</p>
          <button type="submit">Send request for changes</button>
        </form>
      )}
    </article>
  );
}

/** Review links already made: who can still decide, and Revoke. */
function ReviewLinks() {
  const { zone } = useApp();
  const live = useLiveVersion();
  const [links, setLinks] = useState<ReviewLinkListed[]>([]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const load = () =>
    get<{ data: ReviewLinkListed[] }>('/review-links')
      .then((r) => setLinks(r.data))
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  useEffect(() => {
    void load();
  }, [live]);
  if (!links.length && !feedback) return null;
  return (
    <section aria-labelledby="links-h" class="card">
      <h2 id="links-h">Review links</h2>
      <FeedbackLine value={feedback} />
      <ul class="plain">
        {links.map((l) => (
          <li key={l.id}>
            {l.job_ids.length} post{l.job_ids.length === 1 ? '' : 's'} ({l.job_ids.join(', ')}) · expires {formatInZone(l.expires_at, zone)}
            {' · '}
            <StatusBadge status={l.status} />{' '}
            {l.status === 'active' && (
              <ConfirmButton
                class="danger"
                label={`Revoke link ${l.id}`}
                title="Revoke this review link?"
                describe={<p>Whoever has the link can no longer see or decide on its posts. The decisions already made stay.</p>}
                keepLabel="Keep the link"
                confirmLabel="Revoke the link"
                onConfirm={async () => {
                  try {
                    await del(`/review-links/${encodeURIComponent(l.id)}`);
                    setFeedback({ kind: 'ok', text: `Revoked review link ${l.id}` });
                    await load();
                  } catch (e) {
                    setFeedback({ kind: 'error', text: message(e) });
                  }
                }}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
