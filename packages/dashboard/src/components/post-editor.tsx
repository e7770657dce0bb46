import type { Platform } from '@socialpub/core/platforms';
import { useState } from 'preact/hooks';
import { entryName, splitEntry } from '../lib/account-name';
import { ApiError, get, message, patch } from '../lib/api';
import { captionFor } from '../lib/caption';
import { toApiWall, wallTime } from '../lib/time';
import type { Post, UpdateResponse } from '../lib/types';
import { CaptionPreview } from './preview';

/** The default caption's editor key: the post's `caption`, which every account without a caption of its own publishes. */
const DEFAULT = '';

/** What the editor has open: nothing, the time, or one caption (`DEFAULT`, or a `platforms` entry such as `twitter:brand`). */
type Open = { kind: 'time' } | { kind: 'caption'; entry: string } | null;

/**
 * The editor of a post not yet published, shared by Review and Posts: **Retime**, **Edit
 * caption** (the default one) and **Edit *account* caption** for each account, saved through
 * PATCH /content/scheduled. A refused save keeps the form open with what was typed and says
 * why (the error body's message); a 409 (nothing left to change) says the post went out, or
 * was cancelled, meanwhile. An open form stays open while the post changes under it
 * (`editable` turning false as it is published), so nothing typed is lost.
 */
export function PostEditor({ post, zone, editable: canEdit, onSaved }: { post: Post; zone: string; editable: boolean; onSaved(res: UpdateResponse): void }) {
  const [open, setOpen] = useState<Open>(null);
  const [draft, setDraft] = useState('');
  const [when, setWhen] = useState('');
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  // A 409 answered a save: the post is past editing even before the list hears of it.
  const [gone, setGone] = useState(false);
  const editable = canEdit && !gone;
  const q = `?job_id=${encodeURIComponent(post.job_id)}`;
  if (!editable && !open) return null;

  const toggle = (next: Exclude<Open, null>) => {
    const same = open?.kind === next.kind && (next.kind === 'time' || (open as { entry: string }).entry === next.entry);
    setOpen(same ? null : next);
    setError('');
    if (next.kind === 'caption') setDraft(next.entry === DEFAULT ? post.caption : captionFor(post, next.entry));
    else setWhen(wallTime(post.scheduled_for ?? post.targets[0]?.scheduled_for ?? new Date().toISOString(), zone));
  };
  const save = async (body: Record<string, unknown>) => {
    setSaving(true);
    setError('');
    try {
      const res = await patch<UpdateResponse>(`/content/scheduled${q}`, body);
      setOpen(null);
      onSaved(res);
    } catch (e) {
      // Both at once: the reason is asked of the daemon first, so no other words show meanwhile.
      const why = await refusal(e, post.job_id);
      if (e instanceof ApiError && e.status === 409) setGone(true);
      setError(why);
    } finally {
      setSaving(false);
    }
  };
  const isOpen = (entry: string) => open?.kind === 'caption' && open.entry === entry;
  const previewEntry = post.platforms.find((p) => !post.platform_captions?.[p]) ?? post.platforms[0];

  const keptWhat = open?.kind === 'time' ? 'The time you chose is kept' : 'Your text is kept';
  // Refused, or (the event stream said so first) no longer editable: either way the form stays, with what was typed.
  const refused = error ? (
    <p class="notice notice-error" role="alert">
      Not saved: {error}. {keptWhat}: {editable ? 'change it and save again.' : 'copy it if you still want it.'}
    </p>
  ) : !editable ? (
    <p class="notice notice-error" role="alert">
      Not saved: {goneMeanwhile(post)}, so it can no longer be edited. {keptWhat}: copy it if you still want it.
    </p>
  ) : null;
  // Once the post can no longer be edited, the form offers to close instead of a save that would be refused.
  const submit = (label: string) =>
    editable ? (
      <button type="submit" disabled={saving}>
        {label}
      </button>
    ) : (
      <button type="button" onClick={() => setOpen(null)}>
        Close the editor
      </button>
    );

  return (
    <div class="post-editor">
      {editable && (
        <div class="actions" role="group" aria-label="Edit the post">
          <button type="button" aria-expanded={open?.kind === 'time'} onClick={() => toggle({ kind: 'time' })}>
            Retime
          </button>
          <button type="button" aria-expanded={isOpen(DEFAULT)} onClick={() => toggle({ kind: 'caption', entry: DEFAULT })}>
            Edit caption
          </button>
          {post.platforms.map((p) => (
            <button type="button" key={p} aria-expanded={isOpen(p)} onClick={() => toggle({ kind: 'caption', entry: p })}>
              Edit {entryName(p)} caption
            </button>
          ))}
        </div>
      )}
      {open?.kind === 'time' && (
        <form class="inline-form" onSubmit={(e) => {
          e.preventDefault();
          void save({ scheduled_for: toApiWall(when), timezone: zone });
        }}>
          <label>
            New time ({zone}) <input type="datetime-local" required value={when} onInput={(e) => setWhen(e.currentTarget.value)} />
          </label>
          {refused}
          {submit('Save time')}
        </form>
      )}
      {open?.kind === 'caption' && (
        <form class="inline-form column" onSubmit={(e) => {
          e.preventDefault();
          void save(open.entry === DEFAULT ? { caption: draft } : { platform_captions: { [open.entry]: draft } });
        }}>
          <label>
            {open.entry === DEFAULT ? 'Caption (for every account without its own)' : `Caption for ${entryName(open.entry)}`}
            <textarea rows={4} value={draft} onInput={(e) => setDraft(e.currentTarget.value)} />
          </label>
          {previewEntry !== undefined && <CaptionPreview text={draft} platform={splitEntry(open.entry || previewEntry).platform as Platform} />}
          {refused}
          {submit('Save caption')}
        </form>
      )}
    </div>
  );
}

/** What happened to a post that can no longer be edited, in words. */
function goneMeanwhile(post: Post): string {
  if (post.targets.some((t) => t.status === 'published' || t.status === 'publishing')) return 'the post went out meanwhile';
  if (post.targets.every((t) => t.status === 'cancelled')) return 'the post was cancelled meanwhile';
  return 'the post started publishing meanwhile';
}

/**
 * Why a save was refused, for people: the error body's message, and for a 409 (nothing left
 * to change) what happened to the post meanwhile, asked of the daemon.
 */
async function refusal(e: unknown, jobId: string): Promise<string> {
  if (!(e instanceof ApiError) || e.status !== 409) return message(e);
  try {
    const now = (await get<{ post: Post }>(`/content/scheduled?job_id=${encodeURIComponent(jobId)}`)).post;
    return `${goneMeanwhile(now)}, so it can no longer be edited (${e.message})`;
  } catch {
    return `the post can no longer be edited (${e.message})`;
  }
}
