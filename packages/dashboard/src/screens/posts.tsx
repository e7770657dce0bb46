import { useEffect, useRef, useState } from 'preact/hooks';
import { HoldLine } from '../components/hold-line';
import { PostFigures } from '../components/post-figures';
import { FeedbackLine, StatusBadge, type Feedback } from '../components/notice';
import { ConfirmButton } from '../components/confirm-button';
import { PostFilters } from '../components/post-filters';
import { PostEditor } from '../components/post-editor';
import { SourceLine } from '../components/post-view';
import { ReviewHistory } from '../components/review-history';
import { accountTargetName, targetKey } from '../lib/account-name';
import { del, get, message, post as postJson, qs } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { setDraft } from '../lib/draft';
import { platformName, targetName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import { filterQuery, useUrlFilters } from '../lib/url-filters';
import type { Post, Target, UnpublishResponse } from '../lib/types';
import { TableWrap } from '../components/table-wrap';

/** The status choices; "failed" finds every post with a failed target, partly published ones too (filterQuery). */
const STATUSES: readonly [string, string][] = [
  ['all', 'all'],
  ['pending_approval', 'pending approval'],
  ['changes_requested', 'changes requested'],
  ['scheduled', 'scheduled'],
  ['publishing', 'publishing'],
  ['published', 'published'],
  ['partially_published', 'partially published'],
  ['failed', 'failed (wholly or partly)'],
  ['cancelled', 'cancelled'],
  ['needs_review', 'needs review'],
  ['removed', 'removed'],
];

/** A link from a platform, as a link only when it is http(s); anything else stays text. */
export function SafeLink({ href, children }: { href: string; children: string }) {
  let ok: boolean;
  try {
    const u = new URL(href);
    ok = u.protocol === 'https:' || u.protocol === 'http:';
  } catch {
    ok = false;
  }
  return ok ? (
    <a href={href} rel="noopener noreferrer" target="_blank">
      {children}
    </a>
  ) : (
    <span class="caption-text">{href}</span>
  );
}

/** Posts: the history, every target's outcome, and take-downs. */
export function PostsScreen() {
  const { zone, navigate } = useApp();
  const live = useLiveVersion();
  const [filters, setFilter, clearFilters] = useUrlFilters();
  const [posts, setPosts] = useState<Post[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const seq = useRef(0);

  const load = async (more = false) => {
    const mine = ++seq.current;
    try {
      const page = await get<{ posts: Post[]; next_cursor: string | null }>(`/content/scheduled${qs({ ...filterQuery(filters, zone), limit: 50, cursor: more ? cursor : undefined })}`);
      // A newer filter's answer wins over a slower older one.
      if (mine !== seq.current) return;
      // Newest first reads best in a history.
      setPosts(more ? [...posts, ...page.posts] : page.posts);
      setCursor(page.next_cursor);
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [filters, live]);

  const act = async (fn: () => Promise<{ message: string }>) => {
    try {
      const r = await fn();
      setFeedback({ kind: 'ok', text: r.message });
      await load();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };

  return (
    <section aria-labelledby="posts-h">
      <h1 id="posts-h">Posts</h1>
      <PostFilters filters={filters} set={setFilter} clear={clearFilters} statuses={STATUSES} />
      <FeedbackLine value={feedback} />
      {posts.length === 0 && <p class="empty">{Object.values(filters).some(Boolean) ? 'No post matches the filters.' : 'No posts.'}</p>}
      {posts.map((p) => {
        const q = `?job_id=${encodeURIComponent(p.job_id)}`;
        const published = p.targets.some((t) => t.status === 'published');
        const waiting = p.targets.some((t) => t.status === 'scheduled' || t.status === 'pending_approval' || t.status === 'changes_requested');
        return (
          <article class="card" key={p.job_id} aria-label={`Post ${p.job_id}`}>
            <header class="card-head">
              <h2 class="card-title">{p.caption.split('\n')[0]!.slice(0, 80)}</h2> <StatusBadge status={p.status} />
            </header>
            <SourceLine post={p} zone={zone} />
            <Rejection post={p} zone={zone} />
            <ReviewHistory post={p} zone={zone} />
            <TableWrap label={`Targets of ${p.job_id}`}>
              <table>
                <caption class="sr-only">Targets of {p.job_id}</caption>
                <thead>
                  <tr>
                    <th scope="col">Target</th>
                    <th scope="col">Time</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Link or error</th>
                  </tr>
                </thead>
                <tbody>
                  {p.targets.map((t) => (
                    <tr key={targetKey(t)}>
                      <td>{accountTargetName(t)}</td>
                      <td>
                        {formatInZone(t.published_at ?? t.scheduled_for, zone)}
                        <HoldLine target={t} zone={zone} />
                      </td>
                      <td>
                        <StatusBadge status={t.status} />
                      </td>
                      <td>
                        <Outcome t={t} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {/* Review edits the posts waiting for a decision; here a scheduled one, with the same editor. */}
            <PostEditor post={p} zone={zone} editable={p.targets.some((t) => t.status === 'scheduled')} onSaved={(r) => {
              setFeedback({ kind: 'ok', text: r.message });
              void load();
            }} />
            {(published || p.targets.some((t) => t.status === 'removed')) && <PostFigures jobId={p.job_id} zone={zone} />}
            <div class="actions">
              {published && (
                <ConfirmButton
                  class="danger"
                  label="Take down"
                  title="Take down this post?"
                  describe={<TakeDownText post={p} />}
                  keepLabel="Keep it up"
                  confirmLabel="Take down"
                  onConfirm={() => act(async () => {
                    const r = await postJson<UnpublishResponse>(`/content/scheduled/unpublish${q}`);
                    return { message: `${r.message}: ${r.targets.map((t) => `${targetName(t.platform, t.type)} ${t.result}${t.message ? ` (${t.message})` : ''}`).join('; ')}` };
                  })}
                />
              )}
              {p.targets.some((t) => t.status === 'needs_review' || t.status === 'failed') && (
                <button type="button" onClick={() => {
                  const again = [...new Set(p.targets.filter((t) => t.status === 'needs_review' || t.status === 'failed').map((t) => t.platform))];
                  setDraft({ caption: p.caption, platforms: again, platform_captions: Object.fromEntries(Object.entries(p.platform_captions).filter(([k]) => again.includes(k as never))), media_urls: p.media_urls });
                  navigate('/compose');
                }}>
                  Publish again
                </button>
              )}
              {waiting && (
                <ConfirmButton
                  label="Cancel"
                  title="Cancel this post?"
                  describe={<CancelText post={p} zone={zone} />}
                  keepLabel="Keep it scheduled"
                  confirmLabel="Cancel the post"
                  onConfirm={() => act(() => del<{ message: string }>(`/content/scheduled${q}`))}
                />
              )}
            </div>
          </article>
        );
      })}
      {cursor && (
        <button type="button" onClick={() => void load(true)}>
          Load more
        </button>
      )}
    </section>
  );
}

function Outcome({ t }: { t: Target }) {
  const removal = (t as Target & { removal?: { state: string; message: string } | null }).removal;
  return (
    <>
      {t.post_url && <SafeLink href={t.post_url}>{t.post_url}</SafeLink>}
      {t.error && <span class="caption-text"> {t.error.message}</span>}
      {t.status === 'needs_review' && (
        <p class="explain">
          The outcome of the last attempt could not be established, so socialpub will not send it again (a post is never published twice). Look on {platformName(t.platform)}: if the post is there,
          nothing is left to do; if it is not, use Publish again (a new post, from Compose).
        </p>
      )}
      {removal && <span class="caption-text"> take-down {removal.state}: {removal.message}</span>}
    </>
  );
}

/** Why a post was rejected, when the daemon recorded a reason (a rejection from Review or a review link). */
function Rejection({ post, zone }: { post: Post; zone: string }) {
  const r = post.rejection;
  if (!r) return null;
  return (
    <p class="caption-text">
      Rejected {formatInZone(r.at, zone)}
      {` (${r.source.replace('_', ' ')})`}
      {r.reason ? `: ${r.reason}` : ''}
    </p>
  );
}

/** What a take-down does, for the dialog that asks first: the live targets it deletes. */
/** What Cancel stops: the targets not started yet, each with its time; those that went out stay. */
function CancelText({ post, zone }: { post: Post; zone: string }) {
  const left = post.targets.filter((t) => t.status === 'scheduled' || t.status === 'pending_approval' || t.status === 'changes_requested');
  const gone = post.targets.length - left.length;
  return (
    <p>
      {left.map((t) => `${accountTargetName(t)} (${formatInZone(t.scheduled_for, zone)})`).join(', ')} will not be published. It cannot be undone: to post it later, compose it
      again.{gone > 0 ? ' Targets already published or under way are not changed.' : ''}
    </p>
  );
}

function TakeDownText({ post }: { post: Post }) {
  const live = post.targets.filter((t) => t.status === 'published').map((t) => targetName(t.platform, t.type));
  return (
    <p>
      This deletes the post from {live.join(', ')}: people will no longer see it there, and its likes and comments go with it. It cannot be published back; a new post would start
      from nothing.
    </p>
  );
}
