import { PLATFORMS, platformDescription } from '@socialpub/core/platforms';
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button';
import { FeedbackLine, StatusBadge, type Feedback } from '../components/notice';
import { accountName } from '../lib/account-name';
import { allPages, del, get, message, patch, post as postJson } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { platformName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import type { Connection, PendingConnection, Post } from '../lib/types';

/** Connections: list with status, connect (sandbox or live through the authorize flow), reconnect, remove. */
export function ConnectionsScreen() {
  const { zone, reloadContext } = useApp();
  const live = useLiveVersion();
  const [list, setList] = useState<Connection[] | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [sandbox, setSandbox] = useState<string>(PLATFORMS[0]);
  const [label, setLabel] = useState('');
  const [pending, setPending] = useState<PendingConnection | null>(null);

  const load = async () => {
    try {
      setList((await get<{ data: Connection[] }>('/connections')).data);
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  useEffect(() => {
    void load();
  }, [live]);
  // Back from a platform's consent page: the pending connect says what happened or asks a choice.
  useEffect(() => {
    const id = new URLSearchParams(location.search).get('pending');
    if (!id) return;
    get<PendingConnection>(`/connections/pending/${encodeURIComponent(id)}`)
      .then(async (p) => {
        setPending(p);
        if (p.status === 'connected') {
          await load();
          await reloadContext();
        }
      })
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  }, []);

  const run = async (fn: () => Promise<string>) => {
    try {
      setFeedback({ kind: 'ok', text: await fn() });
      await load();
      await reloadContext();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };

  return (
    <section aria-labelledby="conn-h">
      <h1 id="conn-h">Connections</h1>
      <FeedbackLine value={feedback} />
      {pending && <PendingPanel pending={pending} onChosen={(p) => {
        setPending(p);
        void load();
        void reloadContext();
      }} />}
      {list?.length === 0 && <p class="empty">Nothing is connected yet.</p>}
      <ul class="plain connections">
        {list?.map((c) => (
          <li key={c.id} class="card">
            <strong>{accountName(c)}</strong> <span class="caption-text">{c.account_name ?? c.account_id ?? ''}</span>
            {c.is_default && list.some((o) => o.id !== c.id && o.platform === c.platform) ? <span class="badge">default</span> : null}
            {c.page_name ? <span class="caption-text"> · page {c.page_name}</span> : null} <StatusBadge status={c.status} /> {c.sandbox ? <span class="badge">sandbox</span> : null}{' '}
            <span class="muted">since {formatInZone(c.created_at, zone)}</span>
            {c.status_reason && <p class="caption-text">{c.status_reason}</p>}
            {c.paused && (
              <p class="caption-text">
                Paused until {formatInZone(c.paused.until, zone)}: {c.paused.reason}
              </p>
            )}
            <div class="actions">
              {c.is_default === false && (
                <button type="button" onClick={() => void run(async () => {
                  await patch<Connection>(`/connections/${encodeURIComponent(c.id)}`, { default: true });
                  return `${accountName(c)} is now the default ${platformName(c.platform)} account`;
                })}>
                  Make {accountName(c)} the default
                </button>
              )}
              <ConfirmButton
                class="danger"
                label={`Remove ${accountName(c)}`}
                title={`Remove the ${accountName(c)} connection?`}
                describe={() => removalText(c.platform)}
                keepLabel="Keep the connection"
                confirmLabel="Remove the connection"
                onConfirm={() => run(async () => {
                  await del(`/connections/${encodeURIComponent(c.id)}`);
                  return `Removed the ${accountName(c)} connection`;
                })}
              />
            </div>
          </li>
        ))}
      </ul>
      <form class="card" onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const c = await postJson<Connection>('/connections/sandbox', { platform: sandbox, ...(label.trim() ? { label: label.trim() } : {}) });
          return `Connected ${accountName(c)} (sandbox)`;
        });
      }}>
        <h2>Sandbox account</h2>
        <p class="muted">The daemon's own simulator of the platform: posts go nowhere real, and show in the sandbox.</p>
        <div class="row">
          <label>
            Platform{' '}
            <select value={sandbox} onChange={(e) => setSandbox(e.currentTarget.value)}>
              {PLATFORMS.map((p) => (
                <option key={p} value={p}>
                  {platformName(p)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Label (another account){' '}
            <input value={label} placeholder="brand" pattern="[a-z0-9][a-z0-9_\-]{0,31}" onInput={(e) => setLabel(e.currentTarget.value)} />
          </label>
          <button type="submit" class="primary">
            Connect sandbox
          </button>
        </div>
      </form>
      <LiveConnect
        onError={(text) => setFeedback({ kind: 'error', text })}
        onConnected={(p) => {
          setPending(p);
          void load();
          void reloadContext();
        }}
      />
    </section>
  );
}

/**
 * A real account, or an expired one again. Most networks: the person's app (client id and
 * secret), then the platform's consent page and back to /connections?pending=. Bluesky and
 * Mastodon need no app (their platform's `connect.browserFields` in core): Bluesky connects
 * at once with the handle and an app password; Mastodon asks for the server, registers
 * socialpub there and sends the browser to that server's consent page.
 */
function LiveConnect({ onError, onConnected }: { onError(text: string): void; onConnected(p: PendingConnection): void }) {
  const [platform, setPlatform] = useState<string>(PLATFORMS[0]);
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [login, setLogin] = useState('instagram');
  const [own, setOwn] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const fields = platformDescription(platform)?.connect.browserFields;
  const [label, setLabel] = useState('');
  return (
    <form class="card" aria-labelledby="live-h" onSubmit={async (e) => {
      e.preventDefault();
      setBusy(true);
      try {
        const body: Record<string, unknown> = {};
        if (fields) for (const f of fields) body[f.field] = (own[f.field] ?? '').trim();
        else {
          body.client_id = clientId.trim();
          if (secret.trim()) body.client_secret = secret.trim();
          if (platform === 'instagram') body.login = login;
        }
        // Another account of the platform (or the one of that label again), as `socialpub connect --label`.
        if (label.trim()) body.label = label.trim();
        const p = await postJson<PendingConnection>(`/connections/${platform}/authorize`, body);
        if (p.status === 'connected') {
          setOwn({});
          onConnected(p);
        } else if (p.authorize_url) location.assign(p.authorize_url);
        else onError(p.error ?? 'the platform gave no consent page');
      } catch (err) {
        onError(message(err));
      } finally {
        setBusy(false);
      }
    }}>
      <h2 id="live-h">Real account</h2>
      <p class="muted">
        {fields
          ? `Connect or reconnect ${platformName(platform)}: no app of your own is needed.`
          : 'Connect or reconnect: sign in on the platform with your app, as `socialpub connect` does; the platform sends you back here.'}
      </p>
      <div class="row">
        <label>
          Platform{' '}
          <select value={platform} onChange={(e) => {
            setPlatform(e.currentTarget.value);
            setOwn({});
          }}>
            {PLATFORMS.map((p) => (
              <option key={p} value={p}>
                {platformName(p)}
              </option>
            ))}
          </select>
        </label>
        {fields ? (
          fields.map((f) => (
            <label key={f.field} class="column">
              {f.label}
              <input
                type={f.secret ? 'password' : 'text'}
                required
                autoComplete="off"
                placeholder={f.placeholder}
                aria-describedby={f.help ? `live-${f.field}-help` : undefined}
                value={own[f.field] ?? ''}
                onInput={(e) => setOwn({ ...own, [f.field]: e.currentTarget.value })}
              />
              {f.help && (
                <small class="help" id={`live-${f.field}-help`}>
                  {f.help}
                </small>
              )}
            </label>
          ))
        ) : (
          <>
            <label>
              App client id <input type="text" required value={clientId} onInput={(e) => setClientId(e.currentTarget.value)} />
            </label>
            <label>
              App client secret <input type="password" autoComplete="off" value={secret} onInput={(e) => setSecret(e.currentTarget.value)} />
            </label>
          </>
        )}
        <label>
          Label of this account (another one){' '}
          <input value={label} placeholder="brand" pattern="[a-z0-9][a-z0-9_\-]{0,31}" onInput={(e) => setLabel(e.currentTarget.value)} />
        </label>
        {platform === 'instagram' && (
          <label>
            Login{' '}
            <select value={login} onChange={(e) => setLogin(e.currentTarget.value)}>
              <option value="instagram">Instagram Login</option>
              <option value="facebook">through a Facebook page</option>
            </select>
          </label>
        )}
        <button type="submit" disabled={busy}>
          Connect
        </button>
      </div>
    </form>
  );
}

function PendingPanel({ pending, onChosen }: { pending: PendingConnection; onChosen(p: PendingConnection): void }) {
  const [error, setError] = useState('');
  return (
    <section class="card" aria-label={`${platformName(pending.platform)} connection`}>
      <h2>Connecting {platformName(pending.platform)}</h2>
      {pending.messages.map((m, i) => (
        <p key={i} class="caption-text">
          {m}
        </p>
      ))}
      {pending.status === 'connected' && (
        <p role="status">
          Connected {(pending.connections?.length ?? 0) > 1 ? (pending.connections ?? []).map((c) => accountName(c)).join(', ') : platformName(pending.platform)}.
        </p>
      )}
      {pending.status === 'failed' && <p role="alert">{pending.error ?? 'The connection failed.'}</p>}
      {pending.status === 'choosing' && (
        <form onSubmit={async (e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          // Several pages (or LinkedIn authors) where the platform lets each be an account of its own.
          const body = pending.multiple ? { page_ids: form.getAll('page_id') } : { page_id: form.get('page_id') };
          if (pending.multiple && body.page_ids?.length === 0) {
            setError('Choose at least one');
            return;
          }
          try {
            onChosen(await postJson<PendingConnection>(`/connections/pending/${encodeURIComponent(pending.id)}/choose`, body));
          } catch (err) {
            setError(message(err));
          }
        }}>
          <fieldset>
            <legend>{pending.question ?? (pending.multiple ? 'Choose one or more' : 'Choose one')}</legend>
            {(pending.choices ?? []).map((c) => (
              <label key={c.id}>
                {pending.multiple ? <input type="checkbox" name="page_id" value={c.id} /> : <input type="radio" name="page_id" value={c.id} required />} {c.label}
              </label>
            ))}
          </fieldset>
          <button type="submit" class="primary">
            Connect
          </button>
          {error && <p role="alert">{error}</p>}
        </form>
      )}
    </section>
  );
}

/** The post statuses that can still have targets waiting to go out. */
const OPEN = ['pending_approval', 'scheduled', 'publishing', 'partially_published'] as const;

/**
 * What removing a platform's connection does to the posts waiting for it, for the dialog that
 * asks first: they are not cancelled; at their time, without a connection, they fail.
 */
async function removalText(platform: string) {
  const lists = await Promise.all(OPEN.map((status) => allPages<Post>('/content/scheduled', { status, limit: 200 }, 'posts')));
  const waiting = lists.flat().filter((p) => p.targets.some((t) => t.platform === platform && (t.status === 'scheduled' || t.status === 'pending_approval')));
  const name = platformName(platform);
  if (!waiting.length) return <p>No post is scheduled on {name}. Posts made later for {name} are refused until it is connected again.</p>;
  const n = waiting.length;
  return (
    <p>
      {n} post{n === 1 ? ' is' : 's are'} scheduled on {name}. {n === 1 ? 'It is' : 'They are'} not cancelled: if {name} is not connected again before {n === 1 ? 'its' : 'their'} time,{' '}
      {n === 1 ? 'it fails' : 'they fail'} for {name} with "not connected" (other networks of the same post{n === 1 ? '' : 's'} still go out).
    </p>
  );
}
