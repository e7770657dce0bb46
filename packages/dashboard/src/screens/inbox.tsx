import { replyIdempotencyKey } from '@socialpub/core/reply-idempotency-key';
import { useEffect, useState } from 'preact/hooks';
import { FeedbackLine, type Feedback } from '../components/notice';
import { call, del, get, message, post as postJson, qs } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { platformName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import type { InboxItem, InboxList, InboxReplyResponse } from '../lib/types';
import { SafeLink } from './posts';

const STATUSES = ['all', 'unread', 'read', 'replied', 'hidden'] as const;

/**
 * The inbox: comments people wrote under your published posts, newest first, live as they
 * arrive (comment.received on the event stream). Each shows the post it answers; reply in
 * place (sent once, or held for approval when an agent wrote it), mark read, hide. A
 * comment's text is someone else's words, shown as text.
 */
export function InboxScreen() {
  const { zone, navigate } = useApp();
  const live = useLiveVersion();
  const [status, setStatus] = useState<(typeof STATUSES)[number]>('all');
  const [platform, setPlatform] = useState('all');
  const [page, setPage] = useState<InboxList | null>(null);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [feedback, setFeedback] = useState<Feedback>(null);

  const load = async () => {
    try {
      setPage(await get<InboxList>(`/inbox${qs({ status: status === 'all' ? undefined : status, platform: platform === 'all' ? undefined : platform, limit: 100 })}`));
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [status, platform, live]);

  const act = async (fn: () => Promise<{ message: string }>) => {
    try {
      setFeedback({ kind: 'ok', text: (await fn()).message });
      await load();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  const platforms = [...new Set((page?.items ?? []).map((i) => i.platform))];

  return (
    <section aria-labelledby="inbox-h">
      <h1 id="inbox-h">Inbox</h1>
      <p class="muted">{page ? `${page.unread} unread` : 'Loading…'}</p>
      <div class="filters">
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value as (typeof STATUSES)[number])}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Network{' '}
          <select value={platform} onChange={(e) => setPlatform(e.currentTarget.value)}>
            <option value="all">all</option>
            {[...new Set([...platforms, ...(platform === 'all' ? [] : [platform])])].map((p) => (
              <option key={p} value={p}>
                {platformName(p)}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" onClick={() => act(() => postJson<{ message: string }>('/inbox/refresh'))}>
          Check for new comments
        </button>
      </div>
      <FeedbackLine value={feedback} />
      {page && page.items.length === 0 && <p class="empty">No comments.</p>}
      {page?.items.map((it) => (
        <Comment key={it.id} item={it} zone={zone} draft={drafts[it.id] ?? ''} onDraft={(text) => setDrafts({ ...drafts, [it.id]: text })} onOpenPost={() => navigate(`/posts?job_id=${encodeURIComponent(it.job_id)}`)} act={act} clearDraft={() => setDrafts({ ...drafts, [it.id]: '' })} />
      ))}
    </section>
  );
}

function Comment(props: { item: InboxItem; zone: string; draft: string; onDraft: (text: string) => void; onOpenPost: () => void; act: (fn: () => Promise<{ message: string }>) => Promise<void>; clearDraft: () => void }) {
  const { item: it, zone, act } = props;
  const who = `@${it.author.handle}`;
  return (
    <article class="card" aria-label={`Comment by ${who}`}>
      <header class="card-head">
        <h2 class="card-title">
          {it.author.name ? `${it.author.name} ` : ''}
          {it.author.url ? <SafeLink href={it.author.url}>{who}</SafeLink> : who}
        </h2>{' '}
        <span class={`badge badge-${it.status}`}>{it.status}</span>
      </header>
      <p class="muted">
        {platformName(it.platform)} · {formatInZone(it.created_at, zone)} · on{' '}
        <a href={`/posts?job_id=${encodeURIComponent(it.job_id)}`} onClick={(e) => {
          e.preventDefault();
          props.onOpenPost();
        }}>
          the post {it.job_id}
        </a>
        {it.url ? (
          <>
            {' · '}
            <SafeLink href={it.url}>{`open on ${platformName(it.platform)}`}</SafeLink>
          </>
        ) : null}
      </p>
      <p class="caption-text">{it.text}</p>
      {it.replies.length > 0 && (
        <ul aria-label={`Replies to ${who}`}>
          {it.replies.map((r) => (
            <li key={r.id}>
              <span class={`badge badge-${r.state}`}>{r.state.replace(/_/g, ' ')}</span>{' '}
              {r.deleted_at ? (
                <>
                  <span class="badge">deleted</span>{' '}
                </>
              ) : null}
              <span class="caption-text">{r.text}</span>
              {r.error ? <span class="muted"> — {r.error}</span> : null}
              {r.state === 'sent' && !r.deleted_at && (
                <>
                  {' '}
                  <button type="button" onClick={() => act(() => del<InboxReplyResponse>(`/inbox/replies/${encodeURIComponent(r.id)}`))}>
                    {`Delete reply from ${platformName(it.platform)}`}
                  </button>
                </>
              )}
              {r.state === 'pending_approval' && (
                <>
                  {' '}
                  <button type="button" onClick={() => act(() => postJson<InboxReplyResponse>(`/inbox/replies/${encodeURIComponent(r.id)}/approve`))}>
                    Approve reply
                  </button>{' '}
                  <button type="button" onClick={() => act(() => postJson<InboxReplyResponse>(`/inbox/replies/${encodeURIComponent(r.id)}/reject`))}>
                    Decline reply
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const text = props.draft;
          void act(async () => {
            // One key per reply written: a double click, or a retry of the same send, is one reply.
            const r = await call<InboxReplyResponse>('POST', `/inbox/${encodeURIComponent(it.id)}/reply`, { text }, { headers: { 'Idempotency-Key': replyIdempotencyKey('dash', it.id, text) } });
            props.clearDraft();
            return r;
          });
        }}
      >
        <label>
          Reply to {who}
          <textarea rows={2} value={props.draft} onInput={(e) => props.onDraft(e.currentTarget.value)} />
        </label>
        <div class="actions">
          <button type="submit" disabled={props.draft.trim() === ''}>
            Send reply
          </button>
          {it.status === 'unread' && (
            <button type="button" onClick={() => act(() => postJson<{ message: string }>(`/inbox/${encodeURIComponent(it.id)}/read`))}>
              Mark read
            </button>
          )}
          {it.status !== 'hidden' && (
            <button type="button" onClick={() => act(() => postJson<{ message: string }>(`/inbox/${encodeURIComponent(it.id)}/hide`))}>
              Hide
            </button>
          )}
        </div>
      </form>
    </article>
  );
}
