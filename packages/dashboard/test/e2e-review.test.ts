import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testClock } from './support/test-time';

/**
 * Sign-in and Review in Chromium against a real daemon: the one-time link, a post an agent
 * made through MCP approved and published in the sandbox, a rejection with its reason,
 * and agent-written markup shown as text.
 */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter', 'threads'], zone: 'Europe/Berlin', agentApproval: true })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('sign-in', () => {
  it('opens a session from the one-time link, which is refused the second time', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    const link = d.signinLink();
    await page.goto(link);
    await expect.poll(() => new URL(page.url()).pathname).not.toContain('/auth/link');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    // The token is not left in the address bar, and no page script can read the session.
    expect(page.url()).not.toContain(link.split('/').pop()!);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect((await context.cookies()).find((c) => c.name === 'sp_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });

    const other = await newContext(browser);
    const again = await other.newPage();
    const res = await again.goto(link);
    expect(res?.status()).toBe(410);
    expect((await other.cookies()).some((c) => c.name === 'sp_session')).toBe(false);
    await again.goto(`${d.url}/review`);
    expect(new URL(again.url()).pathname).toBe('/signin');
    await again.getByLabel('API key').waitFor();
    expect(await seriousViolations(again)).toEqual([]);
    await screenshot(again, 'signin');
    expect(w.csp).toEqual([]);
    await other.close();
    await context.close();
  });

  it('signs in with an API key on the sign-in page and out again', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto(`${d.url}/signin`);
    await page.getByLabel('API key').fill('sp_key_wrong_secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/./);
    await page.getByLabel('API key').fill(d.key.api_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/signin$/);
    await page.goto(`${d.url}/settings`);
    expect(new URL(page.url()).pathname).toBe('/signin');
    await context.close();
  });
});

describe('review', () => {
  it('approves a post an agent created through MCP, and the sandbox receives it', async () => {
    const mcp = await d.mcp();
    const made = (await mcp.callTool({ name: 'publish_post', arguments: { caption: 'Agent says hello #launch @team https://example.com/x', platforms: ['twitter', 'threads'], publish_now: true } })) as CallToolResult;
    const jobId = (made.structuredContent as { job_id: string; status: string }).job_id;
    expect((made.structuredContent as { status: string }).status).toBe('pending_approval');

    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    // Landing on Review, since a post waits.
    await page.waitForURL(/\/review$/);
    const card = page.getByRole('article', { name: `Post ${jobId}` });
    await card.waitFor();
    await expect.poll(() => card.getByText('Created by').textContent()).toContain('mcp');
    // Per-platform previews, counted by each network's rules, with marks.
    const twitter = card.getByRole('region', { name: 'X preview' });
    expect(await twitter.locator('.counter').first().textContent()).toMatch(/^\d+ of 280 characters \(a link counts as 23, /);
    expect(await twitter.locator('.tok-hashtag').textContent()).toBe('#launch');
    expect(await twitter.locator('.tok-mention').textContent()).toBe('@team');
    expect(await twitter.locator('.tok-link').textContent()).toBe('https://example.com/x');
    expect(await card.getByRole('region', { name: 'Threads preview' }).locator('.counter').first().textContent()).toMatch(/^\d+ of 500 characters \(an emoji counts as 4 or more\)$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'review');

    await card.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('status').filter({ hasText: `Approved ${jobId}` }).waitFor();
    const published = await vi.waitFor(
      async () => {
        const sandbox = await d.sdk.sandbox.posts({ platform: 'twitter' });
        const hit = sandbox.posts.find((p) => JSON.stringify(p.body).includes('Agent says hello'));
        expect(JSON.stringify(hit?.body)).toContain('Agent says hello #launch @team');
        return hit!;
      },
      { timeout: 15_000, interval: 200 },
    );
    expect(published.platform).toBe('twitter');
    await vi.waitFor(async () => expect((await d.sdk.scheduled.get(jobId)).post.status).toBe('published'), { timeout: 15_000, interval: 200 });
    // The card leaves Review once the post is out (live update, no reload).
    await card.waitFor({ state: 'detached' });
    expect(w.csp).toEqual([]);
    expect(w.errors).toEqual([]);
    await mcp.close();
    await context.close();
  });

  it('rejects a post with a reason, and a new agent post appears without reloading', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.getByRole('link', { name: /^Review/ }).click();
    await page.getByText('Nothing waits for approval.').waitFor();
    const mcp = await d.mcp();
    const later = new Date(testClock.now() + 86_400_000).toISOString();
    const made = (await mcp.callTool({ name: 'publish_post', arguments: { caption: 'Not this one', platforms: ['twitter'], scheduled_for: later } })) as CallToolResult;
    const jobId = (made.structuredContent as { job_id: string }).job_id;
    // The event stream brings it in.
    const card = page.getByRole('article', { name: `Post ${jobId}` });
    await card.waitFor({ timeout: 10_000 });
    await card.getByRole('button', { name: 'Reject', exact: true }).click();
    await card.getByLabel('Reason').fill('Wrong tone for the launch week');
    await card.getByRole('button', { name: 'Reject with reason' }).click();
    await page.getByRole('status').filter({ hasText: `Rejected ${jobId}` }).waitFor();
    const post = (await d.sdk.scheduled.get(jobId)).post;
    expect(post.targets.map((t) => t.status)).toEqual(['cancelled']);
    expect(post.rejection).toMatchObject({ reason: 'Wrong tone for the launch week', source: 'api' });
    // Posts says why.
    await page.getByRole('link', { name: 'Posts' }).click();
    await page.getByRole('article', { name: `Post ${jobId}` }).getByText(/Rejected .*\(api\): Wrong tone for the launch week/).waitFor();
    await mcp.close();
    await context.close();
  });

  it('edits a caption per platform and retimes a post from Review', async () => {
    const base = new Date(testClock.now() + 3 * 86_400_000);
    base.setUTCHours(9, 0, 0, 0);
    const r = await d.sdk.content.publish({ caption: 'Edit me', platforms: ['twitter', 'threads'], scheduled_for: base.toISOString(), require_approval: true });
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    await card.getByRole('button', { name: 'Edit Threads caption' }).click();
    await card.getByLabel('Caption for Threads').fill('Edited for Threads only');
    await card.getByRole('button', { name: 'Save caption' }).click();
    await page.getByRole('status').filter({ hasText: `Updated ${r.job_id}` }).waitFor();
    await card.getByRole('button', { name: 'Retime' }).click();
    await card.getByLabel(/New time/).fill(`${base.toISOString().slice(0, 10)}T18:30`);
    await card.getByRole('button', { name: 'Save time' }).click();
    await page.getByRole('status').filter({ hasText: 're-timed' }).waitFor();
    const post = (await d.sdk.scheduled.get(r.job_id)).post;
    expect(post.platform_captions).toEqual({ threads: 'Edited for Threads only' });
    expect(post.scheduled_local).toBe(`${base.toISOString().slice(0, 10)}T18:30:00`);
    expect(post.timezone).toBe('Europe/Berlin');
    await d.sdk.scheduled.cancel(r.job_id);
    await context.close();
  });

  it('bulk-approves several posts at once', async () => {
    const later = new Date(testClock.now() + 5 * 86_400_000).toISOString();
    const ids = [];
    for (const caption of ['Bulk one', 'Bulk two']) ids.push((await d.sdk.content.publish({ caption, platforms: ['twitter'], scheduled_for: later, require_approval: true })).job_id);
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/review`);
    for (const id of ids) await page.getByRole('article', { name: `Post ${id}` }).getByRole('checkbox', { name: /Select/ }).check();
    await page.getByRole('button', { name: 'Approve selected' }).click();
    await page.getByRole('status').filter({ hasText: 'Approved 2 posts' }).waitFor();
    for (const id of ids) expect((await d.sdk.scheduled.get(id)).post.status).toBe('scheduled');
    for (const id of ids) await d.sdk.scheduled.cancel(id);
    await context.close();
  });
});

describe('hostile text', () => {
  it('shows agent-written markup and javascript: links as text on every page, and runs nothing', async () => {
    const evil = '<img src=x onerror=alert(1)> <script>alert(2)</script> javascript:alert(3)';
    const later = new Date(testClock.now() + 2 * 86_400_000).toISOString();
    const r = await d.sdk.content.publish({
      caption: evil,
      platforms: ['twitter', 'threads'],
      platform_captions: { threads: '<a href="javascript:alert(4)">click</a>' },
      scheduled_for: later,
      require_approval: true,
    });
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    for (const path of ['/review', '/posts', '/calendar']) {
      await page.goto(`${d.url}${path}`);
      await page.getByText('<img src=x onerror=alert(1)>', { exact: false }).first().waitFor();
      expect(await page.locator('img[src="x"], script:not([src]), a[href^="javascript:"]').count()).toBe(0);
    }
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    expect(await card.getByRole('region', { name: 'Threads preview' }).locator('.caption-text').textContent()).toBe('<a href="javascript:alert(4)">click</a>');
    await page.waitForTimeout(300);
    expect(w.dialogs).toEqual([]);
    expect(w.csp).toEqual([]);
    await d.sdk.scheduled.cancel(r.job_id);
    await context.close();
  });
});
