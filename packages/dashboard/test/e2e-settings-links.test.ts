import { ManualClock } from '@socialpub/daemon';
import { AuthenticationError, SocialPub } from '@socialpub/sdk';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { TEST_NOW } from './support/test-time';

/**
 * Settings (API keys used with the SDK, then revoked), Connections (a sandbox account) and
 * review links (a fresh browser without an account approves; the link refused after
 * revocation and after expiry, on the daemon's injected clock) in Chromium, real daemon.
 */
let browser: Browser;
let d: DashboardDaemon;
const clock = new ManualClock(TEST_NOW);

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], zone: 'America/New_York', clock })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const later = (days: number) => new Date(clock.now() + days * 86_400_000).toISOString();

describe('API keys', () => {
  it('generates a key shown once, which works with the SDK until it is revoked (then 401)', async () => {
    const context = await newContext(browser, { now: clock.now() });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: d.url });
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('tab', { name: 'API keys' }).click();
    await page.getByLabel('Key name').fill('agent on the laptop');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const shown = page.getByLabel('New key');
    await shown.waitFor();
    const key = await shown.inputValue();
    expect(key).toMatch(/^sp_/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-keys');

    const sdk = new SocialPub({ baseUrl: d.url, apiKey: key, maxRetries: 0 });
    expect((await sdk.auth.validate()).user.email).toBe(d.key.email);
    const made = await sdk.content.publish({ caption: 'Made with the new key', platforms: ['twitter'], scheduled_for: later(3) });
    expect(made.status).toBe('scheduled');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByLabel('New key').waitFor({ state: 'detached' });
    const row = page.getByRole('row', { name: /agent on the laptop/ });
    const prefix = (await row.locator('code').textContent())!;
    expect(key.startsWith(prefix)).toBe(true);
    await row.getByRole('button', { name: `Revoke ${prefix}` }).click();
    await page.getByRole('alertdialog', { name: `Revoke the key ${prefix}?` }).getByRole('button', { name: 'Revoke the key' }).click();
    await page.getByRole('status').filter({ hasText: `Revoked ${prefix}` }).waitFor();
    await expect(sdk.auth.validate()).rejects.toBeInstanceOf(AuthenticationError);
    await expect(sdk.auth.validate()).rejects.toMatchObject({ status: 401 });
    expect(w.csp).toEqual([]);
    await d.sdk.scheduled.cancel(made.job_id);
    await context.close();
  });

  it('regenerates a key: the new one works, the old one is refused', async () => {
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/settings`);
    await page.getByLabel('Key name').fill('ci');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const old = await page.getByLabel('New key').inputValue();
    const row = page.getByRole('row', { name: /ci/ });
    const prefix = (await row.locator('code').textContent())!;
    await row.getByRole('button', { name: `Regenerate ${prefix}` }).click();
    await page.getByRole('status').filter({ hasText: `Regenerated ${prefix}` }).waitFor();
    const fresh = await page.getByLabel('New key').inputValue();
    expect(fresh).not.toBe(old);
    expect((await new SocialPub({ baseUrl: d.url, apiKey: fresh, maxRetries: 0 }).auth.validate()).valid).toBe(true);
    await expect(new SocialPub({ baseUrl: d.url, apiKey: old, maxRetries: 0 }).auth.validate()).rejects.toMatchObject({ status: 401 });
    await context.close();
  });

  it('generates an agent key from the Scope select: its posts wait for approval and it cannot approve them', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/settings`);
    await page.getByLabel('Key name').fill('drafting agent');
    await page.getByLabel('Scope').selectOption('agent');
    await page.getByRole('button', { name: 'Generate key' }).click();
    const key = await page.getByLabel('New key').inputValue();
    await page.getByRole('status').filter({ hasText: 'Generated agent key' }).waitFor();
    const row = page.getByRole('row', { name: /drafting agent/ });
    expect(await row.getByRole('cell').nth(2).textContent()).toBe('agent');
    // The form is back to the default for the next key.
    expect(await page.getByLabel('Scope').inputValue()).toBe('full');

    const agent = new SocialPub({ baseUrl: d.url, apiKey: key, maxRetries: 0 });
    expect((await agent.auth.validate()).scope).toBe('agent');
    const held = await agent.content.publish({ caption: 'Drafted by an agent', platforms: ['twitter'], publish_now: true });
    expect(held.status).toBe('pending_approval');
    await expect(agent.scheduled.approve(held.job_id)).rejects.toMatchObject({ status: 403, code: 'insufficient_scope' });
    await d.sdk.scheduled.cancel(held.job_id);
    await context.close();
  });

  it('shows the other settings tabs, each with no serious axe violation', async () => {
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/settings`);
    for (const tab of ['Approval', 'Time zone', 'Queue', 'Webhooks']) {
      await page.getByRole('tab', { name: tab }).click();
      await page.getByRole('tabpanel').getByRole('heading', { name: tab === 'Queue' ? 'Queue' : tab }).waitFor();
      expect(await seriousViolations(page), tab).toEqual([]);
    }
    // Queue slots saved, then visible as free slots in the calendar's data.
    await page.getByRole('tab', { name: 'Queue' }).click();
    await page.getByRole('button', { name: 'Add slot' }).click();
    await page.getByLabel('Day').selectOption('wed');
    await page.getByLabel('Time', { exact: true }).fill('09:30');
    await page.getByRole('button', { name: 'Save queue' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved 1 queue slot' }).waitFor();
    const q = await d.sdk.queue.get();
    expect(q.queue.slots).toEqual([{ day: 'wed', time: '09:30' }]);
    await screenshot(page, 'settings-queue');
    // The time zone, saved, is the zone of every time shown.
    await page.getByRole('tab', { name: 'Time zone' }).click();
    // Found by typing, not scrolled for among 400: a city, or an offset.
    await page.getByRole('searchbox', { name: 'Search time zones' }).fill('tokyo');
    const zones = page.getByRole('listbox', { name: 'Time zone' });
    await expect.poll(() => zones.getByRole('option').allTextContents()).toEqual([expect.stringMatching(/^(America\/New York|UTC|Europe\/Berlin) \(GMT/), 'Asia/Tokyo (GMT+9)']);
    await page.getByText(/^1 of \d{3} zones match$/).waitFor();
    await page.getByRole('searchbox', { name: 'Search time zones' }).fill('gmt+9');
    await expect.poll(async () => (await zones.getByRole('option').allTextContents()).length).toBeGreaterThan(3);
    expect(await zones.getByRole('option').allTextContents()).toContain('Asia/Tokyo (GMT+9)');
    await zones.selectOption('Asia/Tokyo');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByRole('status').filter({ hasText: 'Time zone set to Asia/Tokyo' }).waitFor();
    expect((await d.sdk.settings.get()).settings.timezone).toBe('Asia/Tokyo');
    // The calendar shows the queue's free slots (in the zone of the queue: 09:30 New York).
    const next = (await (await fetch(`${d.url}/api/agents/v1/queue/next?count=1`, { headers: { Authorization: `Bearer ${d.key.api_key}` } })).json()) as { slots: { scheduled_for: string }[] };
    await page.goto(`${d.url}/calendar?date=${next.slots[0]!.scheduled_for.slice(0, 10)}`);
    await page.getByText('Times in Asia/Tokyo.').waitFor();
    await page.getByText('Free queue slot wed 09:30').first().waitFor();
    await page.goto(`${d.url}/settings`);
    await page.getByRole('tab', { name: 'Time zone' }).click();
    await page.getByRole('searchbox', { name: 'Search time zones' }).fill('new york');
    await page.getByRole('listbox', { name: 'Time zone' }).selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save time zone' }).click();
    await page.getByRole('status').filter({ hasText: 'Time zone set to America/New_York' }).waitFor();
    await context.close();
  });
});

describe('connections', () => {
  it('connects a sandbox account, lists it with its status, and removes it', async () => {
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByLabel('Platform').first().selectOption('youtube');
    await page.getByRole('button', { name: 'Connect sandbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected YouTube (sandbox)' }).waitFor();
    const item = page.getByRole('listitem').filter({ hasText: 'YouTube' });
    await item.getByText('active').waitFor();
    const platforms = await d.sdk.platforms.list();
    expect(platforms.platforms.find((p) => p.platform === 'youtube')?.connection).toMatchObject({ mode: 'sandbox', status: 'active' });
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'connections');
    // Compose now offers it.
    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: 'YouTube', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('listitem').filter({ hasText: 'YouTube' }).getByRole('button', { name: 'Remove YouTube' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Remove the YouTube connection?' });
    expect(await ask.textContent()).toContain('No post is scheduled on YouTube.');
    await ask.getByRole('button', { name: 'Remove the connection' }).click();
    await page.getByRole('status').filter({ hasText: 'Removed the YouTube connection' }).waitFor();
    expect((await d.sdk.platforms.list()).platforms.find((p) => p.platform === 'youtube')?.connection).toBeNull();
    expect(w.csp).toEqual([]);
    await context.close();
  });
});

describe('several accounts of a platform', () => {
  it('connects another sandbox account under a label, shows it with its label and makes it the default', async () => {
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByLabel('Platform').first().selectOption('linkedin');
    await page.getByRole('button', { name: 'Connect sandbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected LinkedIn (sandbox)' }).waitFor();
    await page.getByLabel('Platform').first().selectOption('linkedin');
    await page.getByLabel('Label (another account)').fill('brand');
    await page.getByRole('button', { name: 'Connect sandbox' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected LinkedIn (brand) (sandbox)' }).waitFor();
    await page.getByRole('button', { name: 'Make LinkedIn (brand) the default' }).click();
    await page.getByRole('status').filter({ hasText: 'LinkedIn (brand) is now the default LinkedIn account' }).waitFor();
    // The default badge moved to the brand account.
    await page.getByRole('listitem').filter({ hasText: 'LinkedIn (brand)' }).getByText('default', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Make LinkedIn (brand) the default' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Make LinkedIn the default' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await context.close();
  });
});

describe('a real account under a label', () => {
  it("sends the label of the Real account form with the live connect, and goes to the platform's consent page", async () => {
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    await d.signIn(page);
    // The consent page is X's own: answered here, as the browser has no way out.
    let consent = '';
    await context.route(/^https:\/\/(x|twitter)\.com\//, async (route) => {
      consent = route.request().url();
      await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>X consent</title><p>consent</p>' });
    });
    await page.getByRole('link', { name: 'Connections' }).click();
    const form = page.locator('form').filter({ hasText: 'Real account' });
    await form.getByLabel('Platform').selectOption('twitter');
    await form.getByLabel('App client id').fill('cid-123');
    await form.getByLabel('Label of this account (another one)').fill('brand');
    const sent = page.waitForRequest((r) => r.url().endsWith('/connections/twitter/authorize') && r.method() === 'POST');
    await form.getByRole('button', { name: 'Connect' }).click();
    expect((await sent).postDataJSON()).toEqual({ client_id: 'cid-123', label: 'brand' });
    await page.waitForURL(/consent|oauth2\/authorize/);
    expect(new URL(consent).searchParams.get('client_id')).toBe('cid-123');
    await context.close();
  });
});

describe('review links', () => {
  async function pending(caption: string) {
    return (await d.sdk.content.publish({ caption, platforms: ['twitter'], scheduled_for: later(4), require_approval: true })).job_id;
  }
  async function openPublic(url: string): Promise<{ page: Page; close(): Promise<void>; w: ReturnType<typeof watch> }> {
    // A fresh browser context: no cookie, no session, like a client's own browser.
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    const w = watch(page);
    await page.goto(url);
    return { page, w, close: () => context.close() };
  }

  it('is made from Review, opened without an account, and approves one post and rejects another with a comment', async () => {
    const a = await pending('For the client: launch teaser');
    const b = await pending('For the client: <b>bold</b> claim');
    const owner = await newContext(browser, { now: clock.now() });
    const page = await owner.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/review`);
    for (const id of [a, b]) await page.getByRole('article', { name: `Post ${id}` }).getByRole('checkbox', { name: /Select/ }).check();
    await page.getByRole('button', { name: 'Share for review' }).click();
    const url = await page.getByLabel('Review link').inputValue();
    expect(url).toMatch(new RegExp(`^${d.url}/r/`));

    const client = await openPublic(url);
    expect((await client.page.context().cookies()).length).toBe(0);
    const teaser = client.page.getByRole('article', { name: 'Post For the client: launch teaser' });
    await teaser.waitFor();
    expect(await seriousViolations(client.page)).toEqual([]);
    await screenshot(client.page, 'review-link', true);
    await teaser.getByLabel(/^Comment for/).fill('Love it');
    await teaser.getByRole('button', { name: 'Approve' }).click();
    await teaser.getByText('Decision: approved').waitFor();
    const bold = client.page.getByRole('article', { name: 'Post For the client: <b>bold</b> claim' });
    await bold.getByLabel(/^Comment for/).fill('Too strong, tone it down');
    await bold.getByRole('button', { name: 'Reject' }).click();
    const asked = client.page.getByRole('alertdialog', { name: 'Reject “For the client: <b>bold</b> claim”?' });
    expect(await asked.getByLabel('Why (for the owner)').inputValue()).toBe('Too strong, tone it down');
    await asked.getByRole('button', { name: 'Reject the post' }).click();
    await bold.getByText('Decision: rejected').waitFor();
    expect((await d.sdk.scheduled.get(a)).post.status).toBe('scheduled');
    const rejected = (await d.sdk.scheduled.get(b)).post;
    expect(rejected.status).toBe('cancelled');
    expect(rejected.rejection).toMatchObject({ reason: 'Too strong, tone it down', source: 'review_link' });
    expect(client.w.csp).toEqual([]);
    expect(client.w.dialogs).toEqual([]);
    await client.close();
    await owner.close();
    await d.sdk.scheduled.cancel(a);
  });

  it('is refused once revoked from Review', async () => {
    const id = await pending('Revocable');
    const link = await d.sdk.reviewLinks.create({ job_ids: [id] });
    const client = await openPublic(link.url);
    const card = client.page.getByRole('article', { name: 'Post Revocable' });
    await card.waitFor();

    const owner = await newContext(browser, { now: clock.now() });
    const page = await owner.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/review`);
    await page.getByRole('button', { name: `Revoke link ${link.id}` }).click();
    await page.getByRole('alertdialog', { name: 'Revoke this review link?' }).getByRole('button', { name: 'Revoke the link' }).click();
    await page.getByRole('status').filter({ hasText: `Revoked review link ${link.id}` }).waitFor();

    // The open page's decision is refused, and a reload shows nothing of the post.
    await card.getByRole('button', { name: 'Approve' }).click();
    await client.page.getByRole('alert').filter({ hasText: 'expired or was revoked' }).waitFor();
    const res = await client.page.reload();
    expect(res?.status()).toBe(404);
    expect(await client.page.getByText('Revocable').count()).toBe(0);
    expect((await d.sdk.scheduled.get(id)).post.status).toBe('pending_approval');
    await client.close();
    await owner.close();
    await d.sdk.scheduled.cancel(id);
  });

  it('is refused once expired (the daemon clock moved past its 72 hours)', async () => {
    const id = await pending('Expiring');
    const link = await d.sdk.reviewLinks.create({ job_ids: [id] });
    const client = await openPublic(link.url);
    await client.page.getByRole('article', { name: 'Post Expiring' }).waitFor();
    clock.set(clock.now() + 73 * 3_600_000);
    await client.page.getByRole('button', { name: 'Approve' }).click();
    await client.page.getByRole('alert').filter({ hasText: 'expired or was revoked' }).waitFor();
    const res = await client.page.reload();
    expect(res?.status()).toBe(404);
    expect(await client.page.getByText('Expiring').count()).toBe(0);
    await client.close();
  });
});
