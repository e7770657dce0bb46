import { DEFAULT_KEY_SCOPE, KEY_SCOPES, isKeyScope, type KeyScope } from '@socialpub/core/key-scopes';
import { PLATFORMS } from '@socialpub/core/platforms';
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton } from '../components/confirm-button';
import { CopyButton, FeedbackLine, StatusBadge, type Feedback } from '../components/notice';
import { OpenSessions } from '../components/open-sessions';
import { del, get, message, patch, post as postJson, put } from '../lib/api';
import { platformName } from '../lib/names';
import { useApp } from '../lib/session';
import { formatInZone } from '../lib/time';
import { ZonePicker } from '../components/zone-picker';
import { EVENT_TYPES, type ApiKey, type NewApiKey, type QueueResponse, type WebhookDelivery, type WebhookEndpoint } from '../lib/types';
import { TableWrap } from '../components/table-wrap';

const TABS = ['API keys', 'Approval', 'Time zone', 'Queue', 'Webhooks'] as const;
type Tab = (typeof TABS)[number];

/** Settings: API keys, approval, time zone, queue slots, webhooks — one tab each. */
export function SettingsScreen() {
  const [tab, setTab] = useState<Tab>('API keys');
  const id = (t: Tab) => `tab-${t.replace(/\s/g, '-').toLowerCase()}`;
  return (
    <section aria-labelledby="settings-h">
      <h1 id="settings-h">Settings</h1>
      <div role="tablist" aria-label="Settings" class="tabs" onKeyDown={(e) => {
        const i = TABS.indexOf(tab);
        const next = e.key === 'ArrowRight' ? TABS[(i + 1) % TABS.length] : e.key === 'ArrowLeft' ? TABS[(i + TABS.length - 1) % TABS.length] : null;
        if (next) {
          setTab(next);
          document.getElementById(id(next))?.focus();
        }
      }}>
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" id={id(t)} aria-selected={tab === t} aria-controls="settings-panel" tabIndex={tab === t ? 0 : -1} onClick={() => setTab(t)}>
            {t}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="settings-panel" aria-labelledby={id(tab)} class="card">
        {tab === 'API keys' && <KeysTab />}
        {tab === 'Approval' && <ApprovalTab />}
        {tab === 'Time zone' && <ZoneTab />}
        {tab === 'Queue' && <QueueTab />}
        {tab === 'Webhooks' && <WebhooksTab />}
      </div>
    </section>
  );
}

/** What each scope lets a key do, as the form's options say it (docs/api.md "Key scopes"). */
const SCOPE_LABELS: Record<KeyScope, string> = {
  full: 'full: everything you can do',
  agent: 'agent: writes posts, each held for your approval',
  read: 'read: reads only',
};

function KeysTab() {
  const { zone } = useApp();
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<KeyScope>(DEFAULT_KEY_SCOPE);
  const [shown, setShown] = useState<NewApiKey | null>(null);
  const [feedback, setFeedback] = useState<Feedback>(null);
  // Revoking or regenerating a key ends the sessions it opened: the sessions list reloads after each action.
  const [actions, setActions] = useState(0);
  const load = () =>
    get<{ data: ApiKey[] }>('/keys')
      .then((r) => {
        setKeys(r.data);
        setActions((n) => n + 1);
      })
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  useEffect(() => {
    void load();
  }, []);
  const run = async (fn: () => Promise<string>) => {
    try {
      setFeedback({ kind: 'ok', text: await fn() });
      await load();
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  return (
    <>
      <h2>API keys</h2>
      <p class="muted">Keys let agents and scripts use this daemon. A new key is shown once.</p>
      <form class="row" onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const k = await postJson<NewApiKey>('/keys', { ...(name.trim() ? { name: name.trim() } : {}), scope });
          setShown(k);
          setName('');
          setScope(DEFAULT_KEY_SCOPE);
          return `Generated ${k.scope} key ${k.prefix}`;
        });
      }}>
        <label>
          Key name <input type="text" value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Scope{' '}
          <select value={scope} onChange={(e) => setScope(isKeyScope(e.currentTarget.value) ? e.currentTarget.value : DEFAULT_KEY_SCOPE)}>
            {KEY_SCOPES.map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Generate key
        </button>
      </form>
      {shown && (
        <div class="secret" role="region" aria-label="Generated key, shown once">
          <p>Copy this key now: it is not shown again.</p>
          <label>
            New key <input type="text" readOnly value={shown.key} size={44} />
          </label>{' '}
          <CopyButton text={shown.key} label="Copy key" />{' '}
          <button type="button" onClick={() => setShown(null)}>
            Done
          </button>
        </div>
      )}
      <FeedbackLine value={feedback} />
      <TableWrap label="API keys">
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Scope</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {keys.map((k) => (
              <tr key={k.id}>
                <td class="caption-text">{k.name ?? '—'}</td>
                <td>
                  <code>{k.prefix}</code>
                </td>
                <td>{k.scope}</td>
                <td>{formatInZone(k.created_at, zone)}</td>
                <td>{k.last_used_at ? formatInZone(k.last_used_at, zone) : 'never'}</td>
                <td>
                  <button type="button" onClick={() => void run(async () => {
                    const n = await postJson<NewApiKey>(`/keys/${encodeURIComponent(k.id)}/rotate`);
                    setShown(n);
                    return `Regenerated ${k.prefix}: the old key no longer works`;
                  })}>
                    Regenerate {k.prefix}
                  </button>{' '}
                  <ConfirmButton
                    class="danger"
                    label={`Revoke ${k.prefix}`}
                    title={`Revoke the key ${k.prefix}?`}
                    describe={<p>Whatever uses this key (an agent, a script, the CLI) is refused from its next request on, and a browser signed in to this dashboard with it is signed out. A revoked key cannot be brought back; a new key would have to be given to each of them.</p>}
                    keepLabel="Keep the key"
                    confirmLabel="Revoke the key"
                    onConfirm={() => run(async () => {
                      await del(`/keys/${encodeURIComponent(k.id)}`);
                      return `Revoked ${k.prefix}`;
                    })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <OpenSessions zone={zone} reload={actions} />
    </>
  );
}

function ApprovalTab() {
  const { approvalWorkflow } = useApp();
  const [agent, setAgent] = useState<boolean | null>(null);
  useEffect(() => {
    get<{ settings: { agent_approval?: boolean } }>('/settings')
      .then((r) => setAgent(r.settings.agent_approval ?? null))
      .catch(() => setAgent(null));
  }, []);
  return (
    <>
      <h2>Approval</h2>
      <dl class="options">
        <div>
          <dt>Approval workflow (every new post waits for approval)</dt>
          <dd>{approvalWorkflow ? 'on' : 'off'}</dd>
        </div>
        {agent !== null && (
          <div>
            <dt>Agent approval (posts agents make through MCP wait for a person)</dt>
            <dd>{agent ? 'on' : 'off'}</dd>
          </div>
        )}
      </dl>
      <p class="muted">
        These are changed on the daemon's machine, so an agent holding a key cannot switch off the approval meant for its own posts:{' '}
        <code>socialpub settings set approval-workflow on|off</code>, <code>socialpub settings set agent-approval on|off</code>.
      </p>
    </>
  );
}

function ZoneTab() {
  const { savedZone, zone, reloadContext } = useApp();
  const [value, setValue] = useState(savedZone ?? zone);
  const [feedback, setFeedback] = useState<Feedback>(null);
  return (
    <form onSubmit={async (e) => {
      e.preventDefault();
      try {
        await patch('/settings', { timezone: value });
        await reloadContext();
        setFeedback({ kind: 'ok', text: `Time zone set to ${value}` });
      } catch (err) {
        setFeedback({ kind: 'error', text: message(err) });
      }
    }}>
      <h2>Time zone</h2>
      <p class="muted">Local times in requests and every time shown here are read in this zone{savedZone ? '' : ' (none saved: the API uses UTC)'}.</p>
      <ZonePicker value={value} onChange={setValue} />
      <button type="submit" class="primary">
        Save time zone
      </button>
      <FeedbackLine value={feedback} />
    </form>
  );
}

type Slot = { day: string; time: string; platforms?: string[]; capacity?: number };
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function QueueTab() {
  const { zone } = useApp();
  const [slots, setSlots] = useState<Slot[]>([]);
  const [capacity, setCapacity] = useState(1);
  const [queueZone, setQueueZone] = useState(zone);
  const [feedback, setFeedback] = useState<Feedback>(null);
  useEffect(() => {
    get<QueueResponse>('/queue')
      .then((r) => {
        setSlots(r.queue.slots as Slot[]);
        setCapacity(r.queue.capacity);
        setQueueZone(r.queue.timezone ?? zone);
      })
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  }, []);
  const edit = (i: number, s: Partial<Slot>) => setSlots(slots.map((x, j) => (j === i ? { ...x, ...s } : x)));
  return (
    <form onSubmit={async (e) => {
      e.preventDefault();
      try {
        const body = { timezone: queueZone, capacity, slots: slots.map((s) => ({ day: s.day, time: s.time, ...(s.platforms?.length ? { platforms: s.platforms } : {}), ...(s.capacity ? { capacity: s.capacity } : {}) })) };
        const r = await put<QueueResponse>('/queue', body);
        setSlots(r.queue.slots as Slot[]);
        setFeedback({ kind: 'ok', text: `Saved ${r.queue.slots.length} queue slot${r.queue.slots.length === 1 ? '' : 's'}` });
      } catch (err) {
        setFeedback({ kind: 'error', text: message(err) });
      }
    }}>
      <h2>Queue</h2>
      <p class="muted">Weekly slots a post can take with “Next queue slot”, in {queueZone}.</p>
      <label>
        Posts per slot <input type="number" min={1} max={100} value={capacity} onInput={(e) => setCapacity(Number(e.currentTarget.value))} />
      </label>
      <ul class="plain">
        {slots.map((s, i) => (
          <li key={i} class="row">
            <label>
              Day{' '}
              <select value={s.day} onChange={(e) => edit(i, { day: e.currentTarget.value })}>
                {DAYS.map((d) => (
                  <option key={d}>{d}</option>
                ))}
              </select>
            </label>
            <label>
              Time <input type="time" value={s.time} required onInput={(e) => edit(i, { time: e.currentTarget.value })} />
            </label>
            <label>
              Only for{' '}
              <select multiple value={s.platforms ?? []} onChange={(e) => edit(i, { platforms: [...e.currentTarget.selectedOptions].map((o) => o.value) })}>
                {PLATFORMS.map((p) => (
                  <option key={p} value={p}>
                    {platformName(p)}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" onClick={() => setSlots(slots.filter((_, j) => j !== i))}>
              Remove slot {s.day} {s.time}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => setSlots([...slots, { day: 'mon', time: '09:00' }])}>
        Add slot
      </button>{' '}
      <button type="submit" class="primary">
        Save queue
      </button>
      <FeedbackLine value={feedback} />
    </form>
  );
}

function WebhooksTab() {
  const { zone } = useApp();
  const [hooks, setHooks] = useState<WebhookEndpoint[]>([]);
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<string[]>(['*']);
  const [secret, setSecret] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>([]);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const load = () =>
    get<{ webhooks: WebhookEndpoint[] }>('/webhooks')
      .then((r) => setHooks(r.webhooks))
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  const loadDeliveries = (id: string) =>
    get<{ deliveries: WebhookDelivery[] }>(`/webhooks/${encodeURIComponent(id)}/deliveries?limit=20`)
      .then((r) => setDeliveries(r.deliveries))
      .catch((e: unknown) => setFeedback({ kind: 'error', text: message(e) }));
  useEffect(() => {
    void load();
  }, []);
  const run = async (fn: () => Promise<string>, reloadDeliveries = true) => {
    try {
      setFeedback({ kind: 'ok', text: await fn() });
      await load();
      if (open && reloadDeliveries) await loadDeliveries(open);
    } catch (e) {
      setFeedback({ kind: 'error', text: message(e) });
    }
  };
  return (
    <>
      <h2>Webhooks</h2>
      <form class="row" onSubmit={(e) => {
        e.preventDefault();
        void run(async () => {
          const r = await postJson<{ webhook: WebhookEndpoint & { secret: string } }>('/webhooks', { url, event_types: types });
          setSecret(r.webhook.secret);
          setUrl('');
          return `Added webhook ${r.webhook.id}`;
        });
      }}>
        <label>
          Webhook URL <input type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://…" />
        </label>
        <label>
          Events{' '}
          <select multiple value={types} onChange={(e) => setTypes([...e.currentTarget.selectedOptions].map((o) => o.value))}>
            <option value="*">every event</option>
            {EVENT_TYPES.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <button type="submit" class="primary">
          Add webhook
        </button>
      </form>
      {secret && (
        <div class="secret" role="region" aria-label="Webhook secret">
          <p>The signing secret, shown once:</p>
          <label>
            Signing secret <input type="text" readOnly value={secret} size={44} />
          </label>{' '}
          <CopyButton text={secret} label="Copy secret" />
        </div>
      )}
      <FeedbackLine value={feedback} />
      <ul class="plain">
        {hooks.map((h) => (
          <li key={h.id} class="card">
            <span class="caption-text">{h.url}</span> <StatusBadge status={h.status} />{h.disabled_reason ? <span class="caption-text"> {h.disabled_reason}</span> : null} <span class="muted">{h.event_types.join(', ')}</span>
            <div class="actions">
              <button type="button" onClick={() => void run(async () => {
                const r = await postJson<{ delivery_id: string }>(`/webhooks/${encodeURIComponent(h.id)}/test`);
                return `Test delivery ${r.delivery_id} queued`;
              })}>
                Test {h.id}
              </button>
              <button type="button" aria-expanded={open === h.id} onClick={() => {
                setOpen(open === h.id ? null : h.id);
                if (open !== h.id) void loadDeliveries(h.id);
              }}>
                Deliveries of {h.id}
              </button>
              <button type="button" class="danger" onClick={() => void run(async () => {
                await del(`/webhooks/${encodeURIComponent(h.id)}`);
                if (open === h.id) setOpen(null);
                return `Deleted webhook ${h.id}`;
              }, false)}>
                Delete {h.id}
              </button>
            </div>
            {open === h.id && (
              <button type="button" onClick={() => void loadDeliveries(h.id)}>
                Refresh deliveries
              </button>
            )}
            {open === h.id && (
              <TableWrap label={`Deliveries of ${h.id}`}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Delivery</th>
                      <th scope="col">Event</th>
                      <th scope="col">Status</th>
                      <th scope="col">Last attempt</th>
                      <th scope="col">Action</th>
                    </tr>
                  </thead>
                  <tbody>
                    {deliveries.map((d) => {
                      const last = d.attempts[d.attempts.length - 1];
                      return (
                        <tr key={d.id}>
                          <td>{d.id}</td>
                          <td>{d.event_type}</td>
                          <td>
                            <StatusBadge status={d.status} />
                          </td>
                          <td>{last ? `${formatInZone(last.started_at, zone)} ${last.status_code ?? ''} ${last.error ?? ''}` : '—'}</td>
                          <td>
                            <button type="button" onClick={() => void run(async () => {
                              await postJson(`/webhooks/${encodeURIComponent(h.id)}/deliveries/${encodeURIComponent(d.id)}/redeliver`);
                              return `Redelivering ${d.id}`;
                            })}>
                              Redeliver {d.id}
                            </button>
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </TableWrap>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
