import { PLATFORMS } from '@socialpub/core/platforms';
import { useEffect, useState } from 'preact/hooks';
import { FeedbackLine, StatusBadge, type Feedback } from '../components/notice';
import { del, get, message, post as postJson } from '../lib/api';
import { useLiveVersion } from '../lib/live';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import type { Connection, PendingConnection } from '../lib/types';

/** Connections: list with status, connect (sandbox or live through the authorize flow), remove. */
export function ConnectionsScreen() {
  const { zone, reloadContext } = useApp();
  const live = useLiveVersion();
  const [list, setList] = useState<Connection[] | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [sandbox, setSandbox] = useState<string>(PLATFORMS[0]);
  const [livePlatform, setLivePlatform] = useState<string>(PLATFORMS[0]);
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
  // Back from a live authorize flow that needs a choice (Facebook page, TikTok creator info).
  useEffect(() => {
    const id = new URLSearchParams(location.search).get('pending');
    if (id) get<PendingConnection>(`/connections/pending/${encodeURIComponent(id)}`).then(setPending).catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
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
      {pending && (
        <form class="card" onSubmit={(e) => {
          e.preventDefault();
          const page = new FormData(e.currentTarget).get('page_id');
          void run(async () => {
            await postJson(`/connections/pending/${encodeURIComponent(pending.id)}/choose`, { page_id: page });
            setPending(null);
            return `Connected ${pending.platform}`;
          });
        }}>
          <h2>Choose the {pending.platform} page</h2>
          {(pending.pages ?? []).map((p) => (
            <label key={p.id}>
              <input type="radio" name="page_id" value={p.id} required /> {p.name}
            </label>
          ))}
          <button type="submit" class="primary">
            Connect
          </button>
        </form>
      )}
      {list?.length === 0 && <p class="empty">Nothing is connected yet.</p>}
      <ul class="plain connections">
        {list?.map((c) => (
          <li key={c.id} class="card">
            <strong>{c.platform}</strong> <span class="caption-text">{c.name ?? ''}</span> <StatusBadge status={c.status} /> {c.sandbox ? <span class="badge">sandbox</span> : null}{' '}
            <span class="muted">since {formatInZone(c.created_at, zone)}</span>
            <div class="actions">
              {c.status !== 'active' && !c.sandbox && (
                <button type="button" onClick={() => void run(async () => {
                  const r = await postJson<{ authorize_url: string }>(`/connections/${c.platform}/authorize`, {});
                  location.assign(r.authorize_url);
                  return `Opening ${c.platform}…`;
                })}>
                  Reconnect {c.platform}
                </button>
              )}
              <button type="button" class="danger" onClick={() => void run(async () => {
                await del(`/connections/${encodeURIComponent(c.id)}`);
                return `Removed the ${c.platform} connection`;
              })}>
                Remove {c.platform}
              </button>
            </div>
          </li>
        ))}
      </ul>
      <form class="card row" onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const c = await postJson<Connection>('/connections/sandbox', { platform: sandbox });
          return `Connected ${c.platform} (sandbox)`;
        });
      }}>
        <h2>Sandbox account</h2>
        <p class="muted">The daemon's own simulator of the platform: posts go nowhere, and show in the sandbox.</p>
        <label>
          Platform{' '}
          <select value={sandbox} onChange={(e) => setSandbox(e.currentTarget.value)}>
            {PLATFORMS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Connect sandbox
        </button>
      </form>
      <form class="card row" onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const r = await postJson<{ authorize_url: string }>(`/connections/${livePlatform}/authorize`, {});
          location.assign(r.authorize_url);
          return `Opening ${livePlatform}…`;
        });
      }}>
        <h2>Real account</h2>
        <p class="muted">Signs in on the platform and comes back here, as `socialpub connect` does.</p>
        <label>
          Platform{' '}
          <select value={livePlatform} onChange={(e) => setLivePlatform(e.currentTarget.value)}>
            {PLATFORMS.map((p) => (
              <option key={p}>{p}</option>
            ))}
          </select>
        </label>
        <button type="submit">Connect</button>
      </form>
    </section>
  );
}
