import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_DATA_SCHEMAS, EVENT_TYPES, EventSchema, eventComponentId, WEBHOOK_TEST_EVENT, type SocialpubEvent } from '@socialpub/core';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { openAdmin } from '../../src/admin/index';
import { resolveConfig } from '../../src/config';
import { startDaemon, type DaemonHandle } from '../../src/daemon';
import { openTestDatabase, testDatabaseConfig } from '../support/store-dialects';
import { createStore } from '../../src/store/store';
import { createTargetQueue } from '../../src/store/target-queue';
import { systemClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { startReceiver } from './receiver';

/**
 * Issue 24, typed events: every event type the daemon sends, captured as a webhook receiver
 * gets it from a real daemon, (1) parses with core's schema of its type, carrying no field
 * the schema does not name, and is the SSE stream's data for the same id; (2) type-checks
 * against TypeScript types generated from the daemon's own OpenAPI document with
 * openapi-typescript (a receiver written from the document alone), while a payload with a
 * wrong field does not.
 *
 * The events come from requests (publish, approve, reject, PATCH, DELETE, unpublish, upload,
 * webhook test, an endpoint answering 410) and the publisher on the sandbox; the attempt
 * ends that need a failing platform (retrying, failed, needs_review) and the connection
 * events (expired, refresh failed, expiring soon) from the store operations the publisher
 * and the token refresher call, on a second connection to the daemon's database file, as
 * another process would.
 */

const EMAIL = 'typed@example.com';
const API = '/api/agents/v1';
const ALL_TYPES = [...EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;
const require = createRequire(import.meta.url);
const TSC = join(require.resolve('typescript/package.json'), '..', 'bin', 'tsc');

let dir: string;
let daemon: DaemonHandle;
let key: string;
let agentKey: string;
const byType = new Map<string, SocialpubEvent>();
const allReceived: SocialpubEvent[] = [];
let closeReceivers: (() => Promise<void>)[] = [];

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const init: RequestInit = { method, headers: { 'X-API-Key': key, ...headers } };
  if (body instanceof Uint8Array) init.body = body;
  else if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${daemon.url}${API}${path}`, init);
  const text = await res.text();
  if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const inADay = (plus = 0) => new Date(Date.now() + 86_400_000 + plus).toISOString();

/** The SSE stream's events from the start of the outbox up to `event: live`. */
async function sseBacklog(): Promise<SocialpubEvent[]> {
  const controller = new AbortController();
  const res = await fetch(`${daemon.url}${API}/events?since=evt_0`, { headers: { 'X-API-Key': key, Accept: 'text/event-stream' }, signal: controller.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const events: SocialpubEvent[] = [];
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const frame = text.slice(0, end);
        text = text.slice(end + 2);
        const name = /^event: (.*)$/m.exec(frame)?.[1];
        if (name === 'live') return events;
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (name && name !== 'ready' && name !== 'gap' && data) events.push(JSON.parse(data) as SocialpubEvent);
      }
    }
  } finally {
    controller.abort();
  }
  return events;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'socialpub-typed-events-'));
  const config = resolveConfig({ dataDir: join(dir, 'data'), host: '127.0.0.1', port: 0, logLevel: 'error', ...testDatabaseConfig(join(dir, 'data')) }, { SOCIALPUB_WEBHOOK_ALLOW_PRIVATE: '1' });
  daemon = await startDaemon(config, { logger: (await import('../../src/util/logger')).silentLogger });
  const admin = openAdmin(config.dataDir, { databaseUrl: config.databaseUrl });
  key = admin.createKey({ email: EMAIL, name: 'typed' }).api_key;
  agentKey = admin.createKey({ email: EMAIL, name: 'typed agent', scope: 'agent' }).api_key;
  admin.addSandboxConnection('twitter', { email: EMAIL });
  admin.addSandboxConnection('youtube', { email: EMAIL });
  admin.close();

  const all = await startReceiver(() => 204);
  const gone = await startReceiver(() => 410);
  closeReceivers = [all.close, gone.close];
  await call('POST', '/webhooks', { url: all.url, event_types: ['*'] });
  const second = (await call('POST', '/webhooks', { url: gone.url, event_types: ['post.accepted'] })) as { webhook: { id: string } };
  const test = (await call('POST', '/webhooks', { url: all.url, event_types: ['post.finished'] })) as { webhook: { id: string } };
  void second;

  // Through requests: publish now (publishing, published, finished), hold/approve, hold/reject, hold/request changes, retime, cancel, take down, upload, test.
  const published = (await call('POST', '/content/publish', { caption: 'typed events', platforms: ['twitter'], publish_now: true })) as { job_id: string };
  const held = (await call('POST', '/content/publish', { caption: 'held', platforms: ['twitter'], scheduled_for: inADay(), require_approval: true })) as { job_id: string };
  await call('POST', `/content/scheduled/approve?job_id=${held.job_id}`);
  const refused = (await call('POST', '/content/publish', { caption: 'refused', platforms: ['twitter'], scheduled_for: inADay(), require_approval: true })) as { job_id: string };
  await call('POST', `/content/scheduled/reject?job_id=${refused.job_id}`, { reason: 'off brand' });
  const revised = (await call('POST', '/content/publish', { caption: 'revised', platforms: ['twitter'], scheduled_for: inADay(), require_approval: true })) as { job_id: string };
  await call('POST', `/content/scheduled/request-changes?job_id=${revised.job_id}`, { comment: 'shorter' });
  const later = (await call('POST', '/content/publish', { caption: 'later', platforms: ['twitter'], scheduled_for: inADay() })) as { job_id: string };
  await call('PATCH', `/content/scheduled?job_id=${later.job_id}`, { scheduled_for: inADay(3_600_000) });
  await call('DELETE', `/content/scheduled?job_id=${later.job_id}`);
  await call('POST', '/media/upload?filename=pixel.png', PNG, { 'Content-Type': 'image/png' });
  // A source the media worker may not fetch (loopback): the task fails.
  await call('POST', '/media/prepare', { urls: [`${gone.url.replace('/hook', '')}/pixel.png`] });
  await call('POST', `/webhooks/${test.webhook.id}/test`);
  for (let i = 0; i < 100; i++) {
    const post = (await call('GET', `/content/scheduled?job_id=${published.job_id}`)) as { post: { status: string } };
    if (post.post.status === 'published') break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The inbox: a reader's reply to the published post (through X's API on the sandbox, as another account), read by a refresh (comment.received), answered (comment.replied).
  const tweet = ((await call('GET', `/content/scheduled?job_id=${published.job_id}`)) as { post: { targets: { post_id: string }[] } }).post.targets[0]!.post_id;
  await fetch(`${daemon.url}/sandbox/api.x.com/2/tweets`, { method: 'POST', headers: { authorization: 'Bearer sandbox-typed-reader', 'content-type': 'application/json' }, body: JSON.stringify({ text: 'A question', reply: { in_reply_to_tweet_id: tweet } }) });
  await call('POST', '/inbox/refresh');
  const comment = ((await call('GET', '/inbox')) as { items: { id: string }[] }).items[0]!;
  await call('POST', `/inbox/${comment.id}/reply`, { text: 'An answer' });
  // An agent's replies wait for a person (comment.reply_pending_approval): one approved, one declined.
  for (const [text, decision] of [['An agent answer', 'approve'], ['Another agent answer', 'reject']] as const) {
    const heldReply = (await call('POST', `/inbox/${comment.id}/reply`, { text }, { 'X-API-Key': agentKey })) as { reply: { id: string } };
    await call('POST', `/inbox/replies/${heldReply.reply.id}/${decision}`);
  }
  // Figures read (post.metrics_updated), then the post taken down.
  await call('POST', '/analytics/refresh', { job_id: published.job_id });
  await call('POST', `/content/scheduled/unpublish?job_id=${published.job_id}`);

  // Through the store operations the publisher and the token refresher call (another connection to the file).
  const db = openTestDatabase(config.dbPath);
  try {
    const store = createStore(db, { secrets: SecretBox.fromKeyFile(config.secretKeyPath), clock: systemClock });
    const queue = createTargetQueue(db);
    // Made due now and run through in one synchronous stretch: the daemon (on this event loop) cannot claim them in between.
    const dueNow = (jobId: string) => {
      const id = db.prepare('SELECT id FROM targets WHERE job_id = ?').pluck().get(jobId) as string;
      db.prepare('UPDATE targets SET due_at = ? WHERE id = ?').run(Date.now() - 1_000, id);
      return id;
    };
    const error = { code: 'platform_error' as const, message: 'the platform answered 503', platformCode: '503' };
    const failing = (await call('POST', '/content/publish', { caption: 'failing', platforms: ['twitter'], scheduled_for: inADay() })) as { job_id: string };
    const unknown = (await call('POST', '/content/publish', { caption: 'unknown', platforms: ['twitter'], scheduled_for: inADay() })) as { job_id: string };
    const f = dueNow(failing.job_id);
    let now = Date.now();
    expect(queue.claimMany([f], now, 'typed-test', now + 60_000)[0]).not.toBeNull();
    expect(queue.finish(f, 'typed-test', now, { status: 'scheduled', nextAttemptAt: now, outcome: 'retry', attemptErrorCode: 'platform_error', error })).toBe(true);
    expect(queue.claimMany([f], now, 'typed-test', now + 60_000)[0]).not.toBeNull();
    expect(queue.finish(f, 'typed-test', now, { status: 'failed', error })).toBe(true);
    const u = dueNow(unknown.job_id);
    now = Date.now();
    expect(queue.claimMany([u], now, 'typed-test', now + 60_000)[0]).not.toBeNull();
    expect(queue.finish(u, 'typed-test', now, { status: 'needs_review', error: { code: 'outcome_unknown', message: 'no answer', platformCode: null } })).toBe(true);

    const yt = db.prepare("SELECT id FROM connections WHERE platform = 'youtube'").pluck().get() as string;
    now = Date.now();
    db.prepare("UPDATE connections SET mode = 'live', token_expires_at = ? WHERE id = ?").run(now + 2 * 86_400_000, yt);
    expect(store.events.warnExpiring(now, 3 * 86_400_000)).toBe(1);
    store.events.refreshFailed(yt, 'HTTP 503 from the token endpoint', true, now);
    store.credentials.markExpired(yt, 'token refresh refused: invalid_grant');
  } finally {
    db.close();
  }

  // Every type arrives at the '*' receiver (webhook.test and the disabled endpoint's event included).
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    byType.clear();
    allReceived.length = 0;
    for (const r of all.received) {
      const e = JSON.parse(r.body) as SocialpubEvent;
      allReceived.push(e);
      if (!byType.has(e.type)) byType.set(e.type, e);
    }
    if (ALL_TYPES.every((t) => byType.has(t))) break;
    await new Promise((r) => setTimeout(r, 50));
  }
}, 30_000);

afterAll(async () => {
  for (const close of closeReceivers) await close();
  await daemon?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The names of `schema`'s object fields (zod 4 objects), to find fields no schema names. */
const fieldsOf = (schema: z.ZodType): string[] => Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape);

describe('typed events: what the daemon sends is what its schemas and OpenAPI document say', () => {
  it('sends every type of the catalogue (and webhook.test) to a receiver subscribed to "*"', () => {
    expect([...byType.keys()].sort()).toEqual([...ALL_TYPES].sort());
  });

  it('every event sent parses with the core schema of its type and carries only the fields it names; SSE sends the same objects', async () => {
    for (const e of allReceived) {
      const parsed = EventSchema.safeParse(e);
      expect(parsed.success, `${e.type} ${JSON.stringify(e)}: ${parsed.error?.message}`).toBe(true);
      if (e.type === WEBHOOK_TEST_EVENT) continue;
      const named = fieldsOf(EVENT_DATA_SCHEMAS[e.type]);
      expect(Object.keys(e.data).filter((k) => !named.includes(k)), `${e.type} fields not in its schema`).toEqual([]);
    }
    // Values, not only shapes: a take-down's event names the post it took down.
    const removed = byType.get('target.removed') as Extract<SocialpubEvent, { type: 'target.removed' }>;
    const published = byType.get('target.published') as Extract<SocialpubEvent, { type: 'target.published' }>;
    expect(removed.data).toMatchObject({ target_id: published.data.target_id, post_id: published.data.post_id, platform: 'twitter' });
    expect(byType.get('post.rejected')?.data).toMatchObject({ reason: 'off brand' });
    const metrics = byType.get('post.metrics_updated') as Extract<SocialpubEvent, { type: 'post.metrics_updated' }>;
    expect(metrics.data).toMatchObject({ target_id: published.data.target_id, post_id: published.data.post_id, platform: 'twitter', type: 'tweet' });
    expect(metrics.data.metrics.impressions).toBe(metrics.data.platform_metrics.impression_count);
    expect(byType.get('post.changes_requested')?.data).toMatchObject({ comment: 'shorter', version: 1, source: 'api', targets: [{ status: 'changes_requested' }] });
    expect(byType.get('target.retrying')?.data).toMatchObject({ error: { code: 'platform_error', platform_code: '503' }, attempt: 1 });

    const sse = await sseBacklog();
    const sent = new Map(allReceived.map((e) => [e.id, e]));
    const shared = sse.filter((e) => sent.has(e.id));
    expect(new Set(shared.map((e) => e.type)).size).toBe(EVENT_TYPES.length);
    for (const e of shared) expect(e).toEqual(sent.get(e.id));
  });

  it('type-checks against TypeScript types generated from GET /openapi.json; a wrong field does not', { timeout: 60_000 }, async () => {
    const doc = (await (await fetch(`${daemon.url}${API}/openapi.json`)).json()) as Parameters<typeof openapiTS>[0];
    const out = mkdtempSync(join(tmpdir(), 'socialpub-typed-receiver-'));
    try {
      writeFileSync(join(out, 'api.d.ts'), astToString(await openapiTS(doc)));
      const typed = ALL_TYPES.map((t, i) => `export const e${i}: components['schemas']['${eventComponentId(t)}'] = ${JSON.stringify(byType.get(t))};`);
      writeFileSync(
        join(out, 'receiver.ts'),
        `import type { components, webhooks } from './api';
type Event = components['schemas']['Event'];
${typed.join('\n')}
/** A receiver's handler, narrowing on type as the document's union allows. */
export function handle(e: Event): string {
  switch (e.type) {
    case 'target.published': return e.data.post_id + String(e.data.attempt) + (e.data.thread_posts?.length ?? 0);
    case 'post.finished': return e.data.status + e.data.targets.map((t) => t.post_url ?? '').join();
    case 'target.retrying': return (e.data.error.code ?? '') + e.data.next_attempt_at;
    case 'connection.refresh_failed': return String(e.data.will_retry);
    default: return e.type;
  }
}
export const sent: Event[] = ${JSON.stringify(allReceived)};
export type Delivered = webhooks['target.published']['post']['requestBody']['content']['application/json'];
export const delivered: Delivered = e${ALL_TYPES.indexOf('target.published')};
`,
      );
      const published = byType.get('target.published') as SocialpubEvent;
      writeFileSync(
        join(out, 'wrong.ts'),
        `import type { components } from './api';
export const wrong: components['schemas']['TargetPublishedEvent'] = ${JSON.stringify({ ...published, data: { ...published.data, attempt: 'first' } })};
`,
      );
      // One compiler run over both: the receiver compiles clean, the wrong field is the only error.
      const tsc = spawnSync(
        process.execPath,
        [TSC, '--noEmit', '--strict', '--skipLibCheck', '--target', 'es2022', '--module', 'preserve', '--moduleResolution', 'bundler', 'receiver.ts', 'wrong.ts'],
        { encoding: 'utf8', cwd: out },
      );
      const errors = tsc.stdout.split('\n').filter((l) => /error TS/.test(l));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/^wrong\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
      expect(tsc.status).not.toBe(0);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

/** A 1x1 PNG (made for this test). */
const PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'),
);
