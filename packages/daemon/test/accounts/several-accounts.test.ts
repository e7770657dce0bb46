import { describe, expect, it } from 'vitest';
import { useCleanups } from '../support/cleanups';
import { listSandboxPosts } from '../support/sandbox-records';
import { advanceUntil, publish, settled, startSandboxDaemon, type SandboxDaemon } from '../support/sandbox-daemon';

/** Issue 39's "done when": several accounts of one network, named `network:label` in platforms. */

const defer = useCleanups();

interface ShownTarget {
  platform: string;
  label: string | null;
  connection_id: string | null;
  status: string;
  post_id: string | null;
}

async function targetsOf(w: SandboxDaemon, jobId: string): Promise<ShownTarget[]> {
  const res = await w.call('GET', `/content/scheduled?job_id=${jobId}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const post = (res.body.post ?? (res.body.posts as unknown[] | undefined)?.[0] ?? res.body) as { targets: ShownTarget[] };
  return post.targets;
}

/** DELETE, answered 204 without a body. */
async function remove(w: SandboxDaemon, path: string): Promise<number> {
  const res = await fetch(`${w.url}/api/agents/v1${path}`, { method: 'DELETE', headers: { 'x-api-key': w.key } });
  return res.status;
}

async function twoTwitterAccounts() {
  const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
  const brand = w.admin.addSandboxConnection('twitter', { email: 'me@example.com', label: 'brand' });
  const main = w.admin.listConnections().find((c) => c.platform === 'twitter' && c.label === 'default')!;
  return { w, brand, main };
}

describe('several accounts of one network', () => {
  it('publishes one post to ["twitter", "twitter:brand"] through two simulated accounts, each target naming its label', async () => {
    const { w, brand, main } = await twoTwitterAccounts();
    expect(main.is_default).toBe(true);
    expect(brand).toMatchObject({ label: 'brand', is_default: false });
    expect(brand.account_id).not.toBe(main.account_id);

    const jobId = await publish(w, { caption: 'one post, two accounts', platforms: ['twitter', 'twitter:brand'], platform_captions: { 'twitter:brand': 'the brand says hi' }, publish_now: true });
    await advanceUntil(w.clock, settled(w, jobId), 60);

    const targets = await targetsOf(w, jobId);
    expect(targets.map((t) => [t.platform, t.label, t.connection_id, t.status])).toEqual([
      ['twitter', 'default', main.connection_id, 'published'],
      ['twitter', 'brand', brand.connection_id, 'published'],
    ]);
    // Two simulated accounts, each with its own caption.
    const posts = listSandboxPosts(w.store, { platform: 'twitter' });
    expect(new Set(posts.map((p) => p.accountId)).size).toBe(2);
    expect(posts.map((p) => String(p.body.text)).sort()).toEqual(['one post, two accounts', 'the brand says hi']);
  });

  it("names each target's account in the job's events (connection_id, label) and in the target view (target_id), so two tweets of one job tell apart", async () => {
    const { w, brand, main } = await twoTwitterAccounts();
    const jobId = await publish(w, { caption: 'two accounts, two events each', platforms: ['twitter', 'twitter:brand'], publish_now: true });
    await advanceUntil(w.clock, settled(w, jobId), 60);
    const res = await w.call('GET', `/content/scheduled?job_id=${jobId}`);
    const shown = (res.body.post as { targets: (ShownTarget & { target_id: string })[] }).targets;
    const accountOf = new Map(shown.map((t) => [t.target_id, [t.connection_id, t.label]]));
    expect([...accountOf.values()]).toEqual([
      [main.connection_id, 'default'],
      [brand.connection_id, 'brand'],
    ]);

    const { events } = w.store.events.listAfter(main.user_id, 0, { jobId });
    type EventTarget = { target_id: string; connection_id: string | null; label: string | null };
    const named = (t: EventTarget) => [t.target_id, t.connection_id, t.label];
    const expected = shown.map((t) => [t.target_id, t.connection_id, t.label]);
    const byType = (type: string) => events.filter((e) => e.type === type).map((e) => e.data);
    expect((byType('post.accepted')[0]!.targets as EventTarget[]).map(named)).toEqual(expected);
    expect((byType('post.finished')[0]!.targets as EventTarget[]).map(named)).toEqual(expected);
    for (const type of ['target.publishing', 'target.published']) {
      const seen = (byType(type) as unknown as EventTarget[]).map(named).sort((a, b) => String(a[2]).localeCompare(String(b[2])));
      expect(seen, type).toEqual([...expected].sort((a, b) => String(a[2]).localeCompare(String(b[2]))));
    }
  });

  it('refuses an account label the user has not connected, naming the entry and how to connect it', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['twitter'] });
    const res = await w.call('POST', '/content/publish', { caption: 'hi', platforms: ['twitter', 'twitter:brand'], publish_now: true });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({
      code: 'platform_not_connected',
      details: [{ path: 'platforms', platform: 'twitter', account: 'twitter:brand', message: 'twitter:brand: you have no twitter account labelled brand (connect one with: socialpub connect twitter --label brand)' }],
    });
  });

  it('checks per-target fields under the account names, with their paths naming them', async () => {
    const { w } = await twoTwitterAccounts();
    const res = await w.call('POST', '/content/validate', { caption: 'hi', platforms: ['twitter', 'twitter:brand'], platform_captions: { 'twitter:brand': 'x'.repeat(300) }, publish_now: true });
    expect(res.status).toBe(200);
    expect(res.body.valid).toBe(false);
    expect((res.body.errors as { path: string }[]).map((e) => e.path)).toEqual(['platform_captions.twitter:brand']);
    const twice = await w.call('POST', '/content/publish', { caption: 'hi', platforms: ['twitter', 'twitter:default'], publish_now: true });
    expect(twice.status).toBe(400);
    expect(twice.body.error).toMatchObject({ code: 'invalid_request', message: 'platforms: twitter:default is the same account as twitter: list it once' });
    const bad = await w.call('POST', '/content/publish', { caption: 'hi', platforms: ['twitter:Brand!'], publish_now: true });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('a label is 1-32 lower-case letters');
  });

  it('times each account by its own type_schedule key', async () => {
    const { w, brand } = await twoTwitterAccounts();
    const base = new Date(w.clock.now() + 3_600_000).toISOString();
    const res = await w.call('POST', '/content/publish', { caption: 'hi', platforms: ['twitter', 'twitter:brand'], scheduled_for: base, type_schedule: { 'twitter:brand': '+2h' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const targets = res.body.targets as { label: string; connection_id: string; scheduled_for: string }[];
    expect(targets.map((t) => [t.label, t.scheduled_for])).toEqual([
      ['default', new Date(w.clock.now() + 3_600_000).toISOString()],
      ['brand', new Date(w.clock.now() + 3 * 3_600_000).toISOString()],
    ]);
    expect(targets[1]!.connection_id).toBe(brand.connection_id);
  });

  it('means the default account by a bare network name: after brand becomes the default, "twitter" publishes through it', async () => {
    const { w, brand, main } = await twoTwitterAccounts();
    const made = await w.call('PATCH', `/connections/${brand.connection_id}`, { default: true });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect(made.body).toMatchObject({ label: 'brand', is_default: true });
    const jobId = await publish(w, { caption: 'to the default', platforms: ['twitter'], publish_now: true });
    await advanceUntil(w.clock, settled(w, jobId), 60);
    const [target] = await targetsOf(w, jobId);
    expect(target).toMatchObject({ label: 'brand', connection_id: brand.connection_id, status: 'published' });
    // The post went out through brand's simulated account: the one its later posts use too.
    const viaBrand = await publish(w, { caption: 'named', platforms: ['twitter:brand'], publish_now: true });
    await advanceUntil(w.clock, settled(w, viaBrand), 60);
    const accounts = listSandboxPosts(w.store, { platform: 'twitter' }).map((p) => p.accountId);
    expect(accounts).toHaveLength(2);
    expect(accounts[0]).toBe(accounts[1]);
    const list = await w.call('GET', '/connections');
    expect((list.body.data as { id: string; label: string; is_default: boolean }[]).map((c) => [c.id, c.label, c.is_default])).toEqual([
      [brand.connection_id, 'brand', true],
      [main.connection_id, 'default', false],
    ]);
  });

  it('renames an account, refuses a label another account has (409), and promotes the oldest account when the default is removed', async () => {
    const { w, brand, main } = await twoTwitterAccounts();
    const renamed = await w.call('PATCH', `/connections/${main.connection_id}`, { label: 'personal' });
    expect(renamed.body).toMatchObject({ label: 'personal', is_default: true });
    const taken = await w.call('PATCH', `/connections/${main.connection_id}`, { label: 'brand' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: 'conflict', message: 'you already have a twitter account labelled brand' });
    const malformed = await w.call('PATCH', `/connections/${main.connection_id}`, { label: 'Not OK' });
    expect(malformed.status).toBe(400);
    expect(await remove(w, `/connections/${main.connection_id}`)).toBe(204);
    const list = await w.call('GET', '/connections');
    expect((list.body.data as { id: string; is_default: boolean }[]).map((c) => [c.id, c.is_default])).toEqual([[brand.connection_id, true]]);
  });

  it('adds another sandbox account through POST /connections/sandbox with a label, and reconnects the one of a label in place', async () => {
    const w = await startSandboxDaemon(defer, { platforms: ['bluesky'] });
    const added = await w.call('POST', '/connections/sandbox', { platform: 'bluesky', label: 'client-a' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ platform: 'bluesky', label: 'client-a', is_default: false });
    const again = await w.call('POST', '/connections/sandbox', { platform: 'bluesky', label: 'client-a' });
    expect(again.body.id).toBe(added.body.id);
    expect(again.body.account_id).not.toBe(added.body.account_id);
    const bad = await w.call('POST', '/connections/sandbox', { platform: 'bluesky', label: 'A B' });
    expect(bad.status).toBe(400);
    expect((await w.call('GET', '/connections')).body.data).toHaveLength(2);
  });

  it('does not publish a target through another account once its own was removed: it fails as not connected', async () => {
    const { w, brand } = await twoTwitterAccounts();
    const base = new Date(w.clock.now() + 60_000).toISOString();
    const jobId = await publish(w, { caption: 'later', platforms: ['twitter:brand'], scheduled_for: base });
    expect(await remove(w, `/connections/${brand.connection_id}`)).toBe(204);
    await advanceUntil(w.clock, settled(w, jobId), 120);
    const [target] = await targetsOf(w, jobId);
    expect(target).toMatchObject({ label: null, connection_id: brand.connection_id, status: 'failed' });
    expect(listSandboxPosts(w.store, { platform: 'twitter' })).toEqual([]);
  });
});
