import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 2's drafts in Chromium against a real daemon: Compose saves as it is typed,
 * in the daemon, so the text survives a reload and is there in another browser (another
 * device); the draft goes once its post is made.
 */
let browser: Browser;
let d: DashboardDaemon;
const ZONE = 'Europe/Berlin';

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter', 'threads'], zone: ZONE, agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const drafts = async () => ((await (await fetch(`${d.url}/api/agents/v1/drafts`, { headers: { 'X-API-Key': d.key.api_key } })).json()) as { drafts: { id: string; content: Record<string, unknown> }[] }).drafts;

describe('drafts kept by the daemon', () => {
  it('saves as it is typed, survives a reload, opens in another browser, and goes once the post is made', async () => {
    const a = await newContext(browser);
    const page = await a.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/compose`);
    await page.getByRole('checkbox', { name: 'Threads', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Half-written idea about our spring menu');
    await page.getByText(/^Draft saved .+: it is kept in socialpub/).waitFor();
    const id = new URL(page.url()).searchParams.get('draft');
    expect(id).toMatch(/^drf_/);
    expect((await drafts()).map((x) => [x.id, x.content.caption, x.content.platforms])).toEqual([[id, 'Half-written idea about our spring menu', ['threads']]]);
    // More typing updates the same draft.
    await page.getByLabel('Caption', { exact: true }).fill('Half-written idea about our spring menu, with prices');
    await expect.poll(async () => (await drafts()).map((x) => x.content.caption), { timeout: 5_000 }).toEqual(['Half-written idea about our spring menu, with prices']);

    await page.reload();
    await expect.poll(() => page.getByLabel('Caption', { exact: true }).inputValue()).toBe('Half-written idea about our spring menu, with prices');
    expect(await page.getByRole('checkbox', { name: 'Threads', exact: true }).isChecked()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await a.close();

    // Another device: the draft is listed, and Open takes it up.
    const b = await newContext(browser);
    const other = await b.newPage();
    await d.signIn(other);
    await other.goto(`${d.url}/compose`);
    await other.getByText('Drafts (1)').click();
    await other.getByRole('list', { name: 'Saved drafts' }).getByRole('button', { name: /^Open draft/ }).click();
    await expect.poll(() => other.getByLabel('Caption', { exact: true }).inputValue()).toBe('Half-written idea about our spring menu, with prices');
    expect(new URL(other.url()).searchParams.get('draft')).toBe(id);
    const when = new Date(testNow().getTime() + 4 * 86_400_000);
    await other.getByLabel(/^Time \(/).fill(`${new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(when)}T09:00`);
    await other.getByRole('status').filter({ hasText: 'Ready' }).waitFor();
    await other.getByRole('button', { name: 'Schedule' }).click();
    const made = other.getByRole('status').filter({ hasText: /Scheduled for/ });
    await made.waitFor();
    await expect.poll(() => drafts(), { timeout: 5_000 }).toEqual([]);
    const job = /\((job_[0-9a-z]+)\)/.exec((await made.textContent()) ?? '')![1]!;
    expect((await d.sdk.scheduled.get(job)).post.caption).toBe('Half-written idea about our spring menu, with prices');
    await b.close();
    await d.sdk.scheduled.cancel(job);
  });
});
