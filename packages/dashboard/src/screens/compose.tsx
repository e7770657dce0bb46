import { PLATFORM_INFO, type Platform } from '@socialpub/core/platforms';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { FeedbackLine, type Feedback } from '../components/notice';
import { DraftsList } from '../components/drafts-list';
import { MediaLibrary } from '../components/media-library';
import { OptionField } from '../components/option-field';
import { NetworkPreview } from '../platforms/network-preview';
import { call, get, message, post as postJson, upload } from '../lib/api';
import { takeDraft } from '../lib/draft';
import { withField, type OptionSchema } from '../lib/option-schema';
import { choiceName } from '../lib/option-words';
import { untilMediaTaskEnds } from '../lib/live';
import { composeAccounts, type ComposeAccount } from '../lib/compose-accounts';
import { entryName, splitEntry } from '../lib/account-name';
import { platformName, targetName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone, toApiWall, wallTime } from '../lib/time';
import type { Connection, Draft, DraftAnswer, DraftList, MediaStatus, MediaUploadResponse, PlatformEntry, PublishRequestInput, PublishResult, TiktokCreatorInfo, ValidateResult } from '../lib/types';

type When = 'now' | 'at' | 'queue' | 'repeat';

interface MediaItem {
  key: string;
  name: string;
  url: string | null;
  kind: 'image' | 'video' | null;
  progress: number;
  error: string | null;
}

/** Compose: the publish request with what it can carry, checked live by /content/validate. */
export function ComposeScreen() {
  const { platforms: entries, connected, zone, navigate, approvalWorkflow } = useApp();
  const [draft] = useState(takeDraft);
  // The `platforms` entries chosen: `twitter` (the default account) or `twitter:brand` (another); the per-account fields are keyed the same way.
  const isConnected = (key: string) => connected.includes(splitEntry(key).platform as Platform);
  const [chosen, setChosen] = useState<string[]>(() => draft?.platforms.filter(isConnected) ?? []);
  const [connections, setConnections] = useState<Connection[] | null>(null);
  const accounts = useMemo(() => composeAccounts(connections, connected), [connections, connected]);
  const [caption, setCaption] = useState(draft?.caption ?? '');
  const [own, setOwn] = useState<Partial<Record<string, string>>>(draft?.platform_captions ?? {});
  const [types, setTypes] = useState<Partial<Record<string, string[]>>>({});
  const [options, setOptions] = useState<Partial<Record<string, Record<string, unknown>>>>({});
  const [when, setWhen] = useState<When>('at');
  const [at, setAt] = useState(() => wallTime(new Date(Date.now() + 3_600_000).toISOString(), zone));
  const [freq, setFreq] = useState('WEEKLY');
  const [count, setCount] = useState(4);
  const [approval, setApproval] = useState(false);
  const [media, setMedia] = useState<MediaItem[]>(() => (draft?.media_urls ?? []).map((url, i) => ({ key: `draft-${i}`, name: url.split('/').pop() ?? url, url, kind: null, progress: 1, error: null })));
  const [link, setLink] = useState('');
  const [check, setCheck] = useState<ValidateResult | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<PublishResult | null>(null);
  const [dragging, setDragging] = useState(false);
  // The draft kept in the daemon (saved as it is typed): its id is in the address (/compose?draft=…).
  const draftId = useRef<string | null>(new URLSearchParams(location.search).get('draft'));
  const [drafts, setDrafts] = useState<Draft[]>([]);
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const [saveError, setSaveError] = useState('');
  const [ready, setReady] = useState(draftId.current === null);
  const lastSaved = useRef('');
  const saving = useRef<Promise<void>>(Promise.resolve());
  const mediaUrls = media.filter((m) => m.url).map((m) => m.url!);
  const kinds = Object.fromEntries(media.filter((m) => m.url && m.kind).map((m) => [m.url!, m.kind!]));

  const content = useMemo(
    () => ({
      caption,
      platforms: chosen,
      platform_captions: own,
      platform_types: types,
      platform_options: options,
      media: media.filter((m) => m.url).map((m) => ({ name: m.name, url: m.url, kind: m.kind })),
      when,
      at,
      freq,
      count,
      approval,
    }),
    [caption, chosen, own, types, options, media, when, at, freq, count, approval],
  );
  const blank = !caption.trim() && !chosen.length && !media.some((m) => m.url);

  /** Puts a saved draft's content back into the form. */
  const takeUp = (d: Draft) => {
    const c = d.content as Partial<typeof content>;
    setCaption(typeof c.caption === 'string' ? c.caption : '');
    setChosen((c.platforms ?? []).filter(isConnected));
    setOwn((c.platform_captions ?? {}) as Partial<Record<string, string>>);
    setTypes((c.platform_types ?? {}) as Partial<Record<string, string[]>>);
    setOptions((c.platform_options ?? {}) as Partial<Record<string, Record<string, unknown>>>);
    setMedia((c.media ?? []).map((m, i) => ({ key: `draft-${i}-${m.url}`, name: m.name, url: m.url, kind: m.kind, progress: 1, error: null })));
    if (c.when) setWhen(c.when);
    if (typeof c.at === 'string') setAt(c.at);
    if (typeof c.freq === 'string') setFreq(c.freq);
    if (typeof c.count === 'number') setCount(c.count);
    setApproval(c.approval === true);
    draftId.current = d.id;
    history.replaceState(history.state, '', `/compose?draft=${encodeURIComponent(d.id)}`);
    lastSaved.current = JSON.stringify(d.content);
    setSavedAt(d.updated_at);
  };
  const loadDrafts = async () => {
    const list = (await get<DraftList>('/drafts')).drafts;
    setDrafts(list);
    return list;
  };
  // Every account of each connected platform (several of one network: `twitter:brand`); until read, the default ones.
  useEffect(() => {
    get<{ data: Connection[] }>('/connections')
      .then((r) => setConnections(r.data))
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  }, []);
  useEffect(() => {
    loadDrafts()
      .then((list) => {
        if (draftId.current === null) return;
        const mine = list.find((d) => d.id === draftId.current);
        if (mine) takeUp(mine);
        else {
          draftId.current = null;
          history.replaceState(history.state, '', '/compose');
        }
      })
      .catch((e: unknown) => setSaveError(message(e)))
      .finally(() => setReady(true));
  }, []);
  // Saved as it is typed (a second after the last change): PUT the draft, or POST the first time.
  useEffect(() => {
    if (!ready || blank || done) return;
    const text = JSON.stringify(content);
    if (text === lastSaved.current) return;
    const t = setTimeout(() => {
      saving.current = saving.current.then(async () => {
        try {
          let answer: DraftAnswer | null = null;
          if (draftId.current) {
            answer = await call<DraftAnswer>('PUT', `/drafts/${encodeURIComponent(draftId.current)}`, { content }).catch((e: unknown) => {
              if ((e as { status?: number }).status === 404) return null;
              throw e;
            });
          }
          answer ??= await call<DraftAnswer>('POST', '/drafts', { content });
          if (draftId.current !== answer.draft.id) {
            draftId.current = answer.draft.id;
            history.replaceState(history.state, '', `/compose?draft=${encodeURIComponent(answer.draft.id)}`);
          }
          lastSaved.current = text;
          setSavedAt(answer.draft.updated_at);
          setSaveError('');
        } catch (e) {
          setSaveError(message(e));
        }
      });
    }, 1000);
    return () => clearTimeout(t);
  }, [content, ready, done]);

  const optionsFor = (p: string): Record<string, unknown> | undefined => {
    const o = options[p];
    return o && Object.keys(o).length ? o : undefined;
  };

  const request = useMemo((): PublishRequestInput | null => {
    if (!chosen.length) return null;
    const body: Record<string, unknown> = { caption, platforms: chosen, timezone: zone };
    const pc = Object.fromEntries(chosen.filter((p) => own[p]?.trim()).map((p) => [p, own[p]]));
    if (Object.keys(pc).length) body.platform_captions = pc;
    const pt = Object.fromEntries(chosen.filter((p) => types[p]?.length).map((p) => [p, types[p]]));
    if (Object.keys(pt).length) body.platform_types = pt;
    if (mediaUrls.length) body.media_urls = mediaUrls;
    const po = Object.fromEntries(chosen.map((p) => [p, optionsFor(p)]).filter(([, o]) => o));
    if (Object.keys(po).length) body.platform_options = po;
    if (approval) body.require_approval = true;
    if (when === 'now') body.publish_now = true;
    else if (when === 'queue') body.queue = true;
    else body.scheduled_for = toApiWall(at);
    if (when === 'repeat') body.recurrence = { rrule: `FREQ=${freq}`, count };
    return body as PublishRequestInput;
  }, [chosen, caption, own, types, options, when, at, freq, count, approval, media, zone]);

  // Live validation, the same checks as publishing (debounced).
  useEffect(() => {
    if (!request || !caption.trim()) {
      setCheck(null);
      return;
    }
    const t = setTimeout(() => {
      postJson<ValidateResult>('/content/validate', request)
        .then(setCheck)
        .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
    }, 400);
    return () => clearTimeout(t);
  }, [request]);

  const addFiles = async (files: FileList | File[]) => {
    for (const file of [...files]) {
      const key = `${file.name}-${Math.random().toString(36).slice(2)}`;
      setMedia((m) => [...m, { key, name: file.name, url: null, kind: null, progress: 0, error: null }]);
      const update = (u: Partial<MediaItem>) => setMedia((m) => m.map((x) => (x.key === key ? { ...x, ...u } : x)));
      try {
        const res = await upload<MediaUploadResponse>(file, (f) => update({ progress: f }));
        const f = res.files[0];
        update({ url: f?.prepared_url ?? null, kind: (f?.type as 'image' | 'video') ?? null, progress: 1 });
      } catch (e) {
        update({ error: message(e) });
      }
    }
  };

  const addLink = async () => {
    const url = link.trim();
    if (!url) return;
    setLink('');
    const key = `link-${Math.random().toString(36).slice(2)}`;
    setMedia((m) => [...m, { key, name: url, url: null, kind: null, progress: 0, error: null }]);
    const update = (u: Partial<MediaItem>) => setMedia((m) => m.map((x) => (x.key === key ? { ...x, ...u } : x)));
    try {
      const task = await postJson<{ task_id: string }>('/media/prepare', { urls: [url] });
      update({ progress: 0.5 });
      // The task's end comes on the event stream: no polling.
      const st = await untilMediaTaskEnds(task.task_id, () => get<MediaStatus>(`/media/status/${encodeURIComponent(task.task_id)}`));
      const s = st as MediaStatus & { files?: { prepared_url: string; type: string }[]; failed?: { error: { message: string } }[]; error?: { message: string } };
      if (s.status === 'completed' && s.files?.[0]) update({ url: s.files[0].prepared_url, kind: s.files[0].type as 'image' | 'video', progress: 1 });
      else update({ error: s.failed?.[0]?.error.message ?? s.error?.message ?? 'the link could not be prepared' });
    } catch (e) {
      update({ error: message(e) });
    }
  };

  // One intent, one post: the key stays while the request stays the same (a second press or a
  // retry after a refusal replays, never adds), and a changed request is a new intent. The ref
  // stops a second press before the disabled button is drawn (a double click lands both).
  const attemptKey = useMemo(() => crypto.randomUUID(), [request]);
  const inFlight = useRef(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!request || inFlight.current) return;
    inFlight.current = true;
    setSending(true);
    setFeedback(null);
    try {
      setDone(await call<PublishResult>('POST', '/content/publish', request, { headers: { 'Idempotency-Key': attemptKey } }));
      // The post is made: its draft has served (a failed delete leaves it listed, nothing worse);
      // a save still on its way lands first, so its draft is the one deleted.
      await saving.current;
      const made = draftId.current;
      draftId.current = null;
      lastSaved.current = '';
      setSavedAt(null);
      history.replaceState(history.state, '', '/compose');
      if (made) void call('DELETE', `/drafts/${encodeURIComponent(made)}`).catch(() => undefined).then(() => loadDrafts().catch(() => undefined));
    } catch (err) {
      setFeedback({ kind: 'error', text: message(err) });
    } finally {
      inFlight.current = false;
      setSending(false);
    }
  };

  const notConnected = entries.filter((e) => !connected.includes(e.platform as Platform));
  const fileInput = useRef<HTMLInputElement>(null);
  const verb = when === 'now' ? 'Publish' : 'Schedule';

  // After success the form is gone (nothing left to press twice): what was made, and where to see it.
  if (done) {
    const again = () => {
      setDone(null);
      setCaption('');
      setOwn({});
      setTypes({});
      setOptions({});
      setMedia([]);
      setCheck(null);
    };
    return <Made result={done} zone={zone} navigate={navigate} onAgain={again} />;
  }

  return (
    <section aria-labelledby="compose-h">
      <h1 id="compose-h">Compose</h1>
      <DraftsList
        drafts={drafts}
        current={draftId.current}
        zone={zone}
        onOpen={(d) => takeUp(d)}
        onDelete={(d) => {
          void call('DELETE', `/drafts/${encodeURIComponent(d.id)}`)
            .then(() => loadDrafts())
            .catch((e: unknown) => setSaveError(message(e)));
        }}
      />
      <p class="muted draft-state" aria-live="polite">
        {saveError ? `Draft not saved: ${saveError}` : savedAt ? `Draft saved ${formatInZone(savedAt, zone)}: it is kept in socialpub, after a reload and on your other devices (Drafts).` : ''}
      </p>
      <form onSubmit={(e) => void submit(e)} class="compose">
        <fieldset>
          <legend>Platforms</legend>
          {connected.length === 0 && <p>No platform is connected yet.</p>}
          {accounts.map((a) => (
            <label key={a.key}>
              <input
                type="checkbox"
                checked={chosen.includes(a.key)}
                onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen, a.key] : chosen.filter((x) => x !== a.key))}
              />{' '}
              {a.name}
            </label>
          ))}
          {notConnected.length > 0 && (
            <p class="muted">
              Not connected: {notConnected.map((e) => platformName(e.platform)).join(', ')}.{' '}
              <a href="/connections" onClick={(e) => {
                e.preventDefault();
                navigate('/connections');
              }}>
                Connect
              </a>
            </p>
          )}
        </fieldset>

        <label class="column">
          Caption
          <textarea rows={5} value={caption} onInput={(e) => setCaption(e.currentTarget.value)} required />
        </label>

        {chosen.map((p) => (
          <PlatformFields
            key={p}
            account={accountOf(accounts, p)}
            entry={entries.find((e) => e.platform === splitEntry(p).platform)}
            caption={own[p] ?? ''}
            onCaption={(v) => setOwn({ ...own, [p]: v })}
            types={types[p] ?? []}
            onTypes={(v) => setTypes({ ...types, [p]: v })}
            options={options[p] ?? {}}
            onOptions={(v) => setOptions({ ...options, [p]: v })}
          />
        ))}

        <fieldset>
          <legend>Media</legend>
          <div
            class={dragging ? 'dropzone dropzone-active' : 'dropzone'}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(e) => {
              e.preventDefault();
              setDragging(false);
              if (e.dataTransfer?.files.length) void addFiles(e.dataTransfer.files);
            }}
          >
            <p>Drop images or videos here, or</p>
            <label>
              Upload media <input ref={fileInput} type="file" multiple accept="image/*,video/*" onChange={(e) => e.currentTarget.files && void addFiles(e.currentTarget.files)} />
            </label>
          </div>
          <div class="row">
            <label>
              Media link <input type="url" value={link} onInput={(e) => setLink(e.currentTarget.value)} placeholder="https://…" />
            </label>
            <button type="button" onClick={() => void addLink()}>
              Add link
            </button>
          </div>
          <MediaLibrary
            zone={zone}
            used={mediaUrls}
            onUse={(f) => setMedia((m) => [...m, { key: `lib-${f.prepared_url}`, name: f.name, url: f.prepared_url, kind: f.type === 'video' ? 'video' : 'image', progress: 1, error: null }])}
          />
          <ul class="plain">
            {media.map((m) => (
              <li key={m.key}>
                <span class="caption-text">{m.name}</span>{' '}
                {m.error ? (
                  <span class="notice-error" role="alert">
                    {m.error}
                  </span>
                ) : (
                  <progress max={1} value={m.progress} aria-label={`${m.name} progress`} />
                )}
                {m.url && <span class="muted"> ready</span>}{' '}
                <button type="button" onClick={() => setMedia(media.filter((x) => x.key !== m.key))}>
                  Remove {m.name}
                </button>
              </li>
            ))}
          </ul>
        </fieldset>

        <fieldset>
          <legend>When</legend>
          {(
            [
              ['now', 'Now'],
              ['at', 'At a time'],
              ['queue', 'Next queue slot'],
              ['repeat', 'Repeat'],
            ] as const
          ).map(([v, l]) => (
            <label key={v}>
              <input type="radio" name="when" value={v} checked={when === v} onChange={() => setWhen(v)} /> {l}
            </label>
          ))}
          {(when === 'at' || when === 'repeat') && (
            <label>
              Time ({zone}) <input type="datetime-local" value={at} required onInput={(e) => setAt(e.currentTarget.value)} />
            </label>
          )}
          {when === 'repeat' && (
            <>
              <label>
                Every{' '}
                <select value={freq} onChange={(e) => setFreq(e.currentTarget.value)}>
                  <option value="DAILY">day</option>
                  <option value="WEEKLY">week</option>
                  <option value="MONTHLY">month</option>
                </select>
              </label>
              <label>
                Times <input type="number" min={1} max={500} value={count} onInput={(e) => setCount(Number(e.currentTarget.value))} />
              </label>
            </>
          )}
          <label>
            <input type="checkbox" checked={approvalWorkflow || approval} disabled={approvalWorkflow} aria-describedby={approvalWorkflow ? 'hold-why' : undefined} onChange={(e) => setApproval(e.currentTarget.checked)} /> Hold for approval
          </label>
          {approvalWorkflow && (
            <p class="muted" id="hold-why">
              Every post waits for approval: your approval workflow is on (on the daemon's machine, <code>socialpub settings set approval-workflow off</code> turns it off).
            </p>
          )}
        </fieldset>

        {check && (
          <section aria-label="Checks" class={check.valid ? 'checks ok' : 'checks bad'} role="status">
            {check.valid ? <p>Ready: {check.targets.length} target{check.targets.length === 1 ? '' : 's'}.</p> : <p>Not ready yet:</p>}
            <ul>
              {(check.errors ?? []).map((e, i) => (
                <li key={i}>
                  {e.path ? `${e.path}: ` : ''}
                  {e.message}
                </li>
              ))}
              {(check.warnings ?? []).map((w, i) => (
                <li key={`w${i}`}>warning: {w.message}</li>
              ))}
            </ul>
          </section>
        )}
        <FeedbackLine value={feedback} />
        <button type="submit" class="primary" disabled={!request || sending}>
          {verb}
        </button>
      </form>

      {chosen.length > 0 && (
        <section aria-labelledby="prev-h">
          <h2 id="prev-h">Previews</h2>
          <div class="previews">
            {chosen.map((p) => (
              <NetworkPreview key={p} platform={splitEntry(p).platform as Platform} label={accountOf(accounts, p).label} types={types[p] ?? []} caption={own[p]?.trim() ? own[p]! : caption} media={mediaUrls} kinds={kinds} options={optionsFor(p) ?? null} />
            ))}
          </div>
        </section>
      )}
    </section>
  );
}

/** The account of a chosen entry (one no longer listed, as a draft may name: by its entry). */
function accountOf(accounts: readonly ComposeAccount[], key: string): ComposeAccount {
  const { platform, label } = splitEntry(key);
  return accounts.find((a) => a.key === key) ?? { key, platform: platform as Platform, label, name: entryName(key) };
}

interface FieldsProps {
  account: ComposeAccount;
  entry: PlatformEntry | undefined;
  caption: string;
  onCaption(v: string): void;
  types: string[];
  onTypes(v: string[]): void;
  options: Record<string, unknown>;
  onOptions(v: Record<string, unknown>): void;
}

/** One account's own caption, content types and options (each with its control, from its JSON Schema, in words). */
function PlatformFields(props: FieldsProps) {
  const { account, entry } = props;
  const { platform, name } = account;
  const info = PLATFORM_INFO[platform];
  // TikTok: offer exactly the privacy levels the creator has now (creator info), as TikTok requires.
  const [creator, setCreator] = useState<TiktokCreatorInfo | null>(null);
  const [creatorError, setCreatorError] = useState('');
  useEffect(() => {
    if (platform !== 'tiktok') return;
    get<{ creator_info: TiktokCreatorInfo }>('/platforms/tiktok/creator-info')
      .then((r) => setCreator(r.creator_info))
      .catch((e: unknown) => setCreatorError(message(e)));
  }, [platform]);
  const schema = (entry?.options ?? null) as { properties?: Record<string, OptionSchema> } | null;
  const fields = Object.entries(schema?.properties ?? {});
  return (
    <fieldset class="platform-fields">
      <legend>{name}</legend>
      <label class="column">
        Caption for {name} (empty: the caption above)
        <textarea rows={3} value={props.caption} onInput={(e) => props.onCaption(e.currentTarget.value)} />
      </label>
      <div role="group" aria-label={`${name} content types`}>
        {info.types.map((t) => (
          <label key={t}>
            <input
              type="checkbox"
              checked={props.types.length ? props.types.includes(t) : t === info.defaultType}
              onChange={(e) => {
                const base = props.types.length ? props.types : [info.defaultType];
                props.onTypes(e.currentTarget.checked ? [...new Set([...base, t])] : base.filter((x) => x !== t));
              }}
            />{' '}
            {targetName(platform, t)}
          </label>
        ))}
      </div>
      {creator && (
        <p class="muted">
          TikTok account {creator.creator_nickname ?? creator.creator_username ?? ''}: can post for {creator.privacy_level_options.map((v) => choiceName('tiktok', 'privacy_level', v)).join(', ')}
          {creator.max_video_post_duration_sec ? `; videos up to ${creator.max_video_post_duration_sec} s` : ''}
          {creator.comment_disabled ? '; comments off' : ''}
          {creator.duet_disabled ? '; duets off' : ''}
          {creator.stitch_disabled ? '; stitches off' : ''}.
        </p>
      )}
      {creatorError && <p class="notice-error">TikTok creator info: {creatorError}</p>}
      {fields.length > 0 && (
        <details>
          <summary>{name} options</summary>
          <div role="group" aria-label={`${name} options`} class="option-fields">
            {fields.map(([key, s]) => (
              <OptionField
                key={key}
                platform={platform}
                path={key}
                schema={s}
                value={props.options[key]}
                onChange={(v) => props.onOptions(withField(props.options, key, v) ?? {})}
                allowed={platform === 'tiktok' && key === 'privacy_level' && creator ? s.enum?.filter((v) => creator.privacy_level_options.includes(String(v))) : undefined}
              />
            ))}
          </div>
        </details>
      )}
    </fieldset>
  );
}

/** What Compose made: the post in words, a link to see it, and a fresh form on demand. */
function Made({ result, zone, navigate, onAgain }: { result: PublishResult; zone: string; navigate(to: string): void; onAgain(): void }) {
  const on = result.platforms.map(entryName).join(', ');
  const [title, text, view, where] =
    result.status === 'publishing'
      ? ['Publishing', `Publishing now on ${on}`, '/posts', 'Posts']
      : result.status === 'pending_approval'
        ? ['Held for approval', `Held for approval, for ${formatInZone(result.scheduled_for, zone)} on ${on}`, '/review', 'Review']
        : ['Scheduled', `Scheduled for ${formatInZone(result.scheduled_for, zone)} on ${on}`, `/calendar?date=${(result.scheduled_local ?? result.scheduled_for ?? '').slice(0, 10)}`, 'the calendar'];
  return (
    <section aria-labelledby="compose-h">
      <h1 id="compose-h">Compose</h1>
      <div class="card made">
        <h2>{title}</h2>
        <p role="status">
          {text} ({result.job_id}).
        </p>
        {(result.warnings ?? []).map((w, i) => (
          <p key={i} class="caption-text">
            warning: {w.message}
          </p>
        ))}
        <p class="actions">
          <a href={view} class="button primary" onClick={(e) => {
            e.preventDefault();
            navigate(view);
          }}>
            View it in {where}
          </a>
          <button type="button" onClick={onAgain}>
            Compose another post
          </button>
        </p>
      </div>
    </section>
  );
}
