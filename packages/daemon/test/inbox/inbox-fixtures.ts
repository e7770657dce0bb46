import { expect } from 'vitest';
import { MASTODON_HOST } from '../../src/platforms/mastodon/sim/simulator';
import { sandboxBaseUrl } from '../../src/platforms/sandbox';
import { advanceUntil, type SandboxDaemon } from '../support/sandbox-daemon';

/** Another Mastodon account on the simulator at `origin`: an app registered there and the token its OAuth grants. */
export async function outsideMastodonToken(origin: string): Promise<string> {
  const redirect = 'urn:ietf:wg:oauth:2.0:oob';
  const post = (path: string, body: unknown) => fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<Record<string, string>>);
  const app = await post('/api/v1/apps', { client_name: 'a reader', redirect_uris: redirect, scopes: 'read write' });
  const auth = await fetch(`${origin}/oauth/authorize?${new URLSearchParams({ client_id: app.client_id!, redirect_uri: redirect, response_type: 'code', scope: 'read write' })}`, { redirect: 'manual' });
  const code = new URL(auth.headers.get('location')!).searchParams.get('code')!;
  return (await post('/oauth/token', { grant_type: 'authorization_code', code, client_id: app.client_id, client_secret: app.client_secret, redirect_uri: redirect })).access_token!;
}

/** Publishes `caption` now to `platforms` and waits until every target is published; their post ids by platform. */
export async function publishNow(w: SandboxDaemon, caption: string, platforms: string[], mediaUrls?: string[]): Promise<{ jobId: string; posts: Record<string, string> }> {
  const pub = await w.call('POST', '/content/publish', { publish_now: true, platforms, caption, ...(mediaUrls ? { media_urls: mediaUrls } : {}) });
  expect(pub.status, JSON.stringify(pub.body)).toBe(200);
  const jobId = String(pub.body.job_id);
  const open = () => (w.db.prepare("SELECT count(*) FROM targets WHERE job_id = ? AND status IN ('scheduled', 'publishing')").pluck().get(jobId) as number) > 0;
  await advanceUntil(w.clock, () => !open(), 300);
  const rows = w.db.prepare('SELECT platform, post_id, status FROM targets WHERE job_id = ?').all(jobId) as { platform: string; post_id: string; status: string }[];
  for (const r of rows) expect(r.status, r.platform).toBe('published');
  return { jobId, posts: Object.fromEntries(rows.map((r) => [r.platform, r.post_id])) };
}

/** A reader's reply to a Mastodon status, through the simulator's API (the daemon's /sandbox path); the reply's id and the reader's token. */
export async function mastodonReaderReplies(w: SandboxDaemon, statusId: string, text: string): Promise<{ id: string; token: string; origin: string }> {
  const origin = sandboxBaseUrl(w.url, MASTODON_HOST);
  const token = await outsideMastodonToken(origin);
  const res = await fetch(`${origin}/api/v1/statuses`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ status: text, in_reply_to_id: statusId }) });
  expect(res.status).toBe(200);
  return { id: ((await res.json()) as { id: string }).id, token, origin };
}

/** The replies under a Mastodon status, read back with the reader's token: [in_reply_to_id, content]. */
export async function mastodonRepliesUnder(origin: string, token: string, statusId: string): Promise<[string, string][]> {
  const ctx = (await (await fetch(`${origin}/api/v1/statuses/${statusId}/context`, { headers: { authorization: `Bearer ${token}` } })).json()) as { descendants: { in_reply_to_id: string; content: string }[] };
  return ctx.descendants.map((s) => [s.in_reply_to_id, s.content]);
}

export const eventsOf = (w: SandboxDaemon, type: string) => (w.db.prepare('SELECT data FROM events WHERE type = ? ORDER BY id').pluck().all(type) as string[]).map((d) => JSON.parse(d) as Record<string, unknown>);

/** Deletes every sent reply of ours under `itemId` through DELETE /inbox/replies/{id}; a second delete of each is refused (409). */
export async function deleteOurReplies(w: SandboxDaemon, itemId: string): Promise<string[]> {
  const items = (await w.call('GET', '/inbox?limit=200')).body.items as { id: string; replies: { id: string; state: string; deleted_at: string | null }[] }[];
  const sent = items.find((i) => i.id === itemId)!.replies.filter((r) => r.state === 'sent');
  for (const r of sent) {
    const res = await w.call('DELETE', `/inbox/replies/${r.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((res.body.reply as { deleted_at: string | null }).deleted_at).toBe(new Date(w.clock.now()).toISOString());
    expect(String(res.body.message)).toMatch(/^Deleted reply /);
    const again = await w.call('DELETE', `/inbox/replies/${r.id}`);
    expect(again.status).toBe(409);
  }
  return sent.map((r) => r.id);
}
