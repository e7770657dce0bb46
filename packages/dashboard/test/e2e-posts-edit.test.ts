import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

/**
 * A scheduled post (no approval) edited from Posts with Review's editor (components/post-editor.tsx):
 * its caption, an account's caption and its time through PATCH /content/scheduled; a
 * refused save keeps what was typed and says why; a post that went out while its editor was
 * open says so, whether the save found out or the event stream did.
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

async function signedIn(): Promise<{ page: Page; close(): Promise<void>; w: ReturnType<typeof watch> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  return { page, w, close: () => context.close() };
}

describe('editing a scheduled post from Posts', () => {
  it('edits the caption, an account caption and the time; a refused save keeps the text and says why', async () => {
    const base = new Date(testNow().getTime() + 3 * 86_400_000);
    base.setUTCHours(9, 0, 0, 0);
    const day = base.toISOString().slice(0, 10);
    const r = await d.sdk.content.publish({ caption: 'Launch day', platforms: ['twitter', 'threads'], scheduled_for: base.toISOString() });
    expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('scheduled');
    const { page, close, w } = await signedIn();
    await page.goto(`${d.url}/posts`);
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });

    await card.getByRole('button', { name: 'Edit X caption' }).click();
    const typed = `Too long for X. ${'word '.repeat(60)}`.trim();
    await card.getByLabel('Caption for X').fill(typed);
    await card.getByRole('button', { name: 'Save caption' }).click();
    const why = card.getByRole('alert').filter({ hasText: 'Not saved' });
    await why.waitFor();
    expect(await why.textContent()).toMatch(/280/);
    expect(await card.getByLabel('Caption for X').inputValue()).toBe(typed);
    expect(await seriousViolations(page)).toEqual([]);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'posts-edit');
    await card.getByLabel('Caption for X').fill('Launch day on X');
    await card.getByRole('button', { name: 'Save caption' }).click();
    await page.getByRole('status').filter({ hasText: `Updated ${r.job_id}` }).waitFor();

    await card.getByRole('button', { name: 'Edit caption', exact: true }).click();
    await card.getByLabel('Caption (for every account without its own)').fill('Launch day, everywhere');
    await card.getByRole('button', { name: 'Save caption' }).click();
    await card.getByRole('heading', { name: 'Launch day, everywhere' }).waitFor();

    await card.getByRole('button', { name: 'Retime' }).click();
    await card.getByLabel(/New time/).fill(`${day}T18:30`);
    await card.getByRole('button', { name: 'Save time' }).click();
    await page.getByRole('status').filter({ hasText: 're-timed' }).waitFor();

    const post = (await d.sdk.scheduled.get(r.job_id)).post;
    expect(post.caption).toBe('Launch day, everywhere');
    expect(post.platform_captions).toEqual({ twitter: 'Launch day on X' });
    expect(post.scheduled_local).toBe(`${day}T18:30:00`);
    expect(post.status).toBe('scheduled');
    expect(w.errors).toEqual([]);
    await d.sdk.scheduled.cancel(r.job_id);
    await close();
  });

  it('says the post went out meanwhile, keeping the text, when the save is refused with 409 and when the event stream tells first', async () => {
    const soon = () => new Date(testNow().getTime() + 2_000).toISOString();
    const { page, close } = await signedIn();
    // The save finds out: the page hears nothing from the event stream.
    await page.route('**/api/agents/v1/events**', (route) => route.abort());
    const a = await d.sdk.content.publish({ caption: 'Out soon', platforms: ['twitter'], scheduled_for: soon() });
    await page.goto(`${d.url}/posts`);
    const card = page.getByRole('article', { name: `Post ${a.job_id}` });
    await card.getByRole('button', { name: 'Edit X caption' }).click();
    await card.getByLabel('Caption for X').fill('Too late words');
    expect((await d.sdk.scheduled.waitUntilDone(a.job_id, { maxWait: 15_000 })).status).toBe('published');
    await card.getByRole('button', { name: 'Save caption' }).click();
    const why = card.getByRole('alert').filter({ hasText: 'Not saved' });
    await why.waitFor();
    expect(await why.textContent()).toMatch(/^Not saved: the post went out meanwhile, so it can no longer be edited \(nothing left to change: .+\)\. Your text is kept: copy it if you still want it\.$/);
    expect(await card.getByLabel('Caption for X').inputValue()).toBe('Too late words');
    await card.getByRole('button', { name: 'Close the editor' }).click();
    await card.getByLabel('Caption for X').waitFor({ state: 'detached' });
    // Published: no editor is offered any more.
    expect(await card.getByRole('button', { name: 'Edit X caption' }).count()).toBe(0);

    // The event stream finds out first: the open editor stays, with the text, and says so.
    await page.unroute('**/api/agents/v1/events**');
    const b = await d.sdk.content.publish({ caption: 'Out soon too', platforms: ['twitter'], scheduled_for: soon() });
    await page.reload();
    const second = page.getByRole('article', { name: `Post ${b.job_id}` });
    await second.getByRole('button', { name: 'Edit X caption' }).click();
    await second.getByLabel('Caption for X').fill('Also too late');
    expect((await d.sdk.scheduled.waitUntilDone(b.job_id, { maxWait: 15_000 })).status).toBe('published');
    await second.getByRole('alert').filter({ hasText: 'Not saved: the post went out meanwhile, so it can no longer be edited. Your text is kept' }).waitFor();
    expect(await second.getByLabel('Caption for X').inputValue()).toBe('Also too late');
    expect(await second.getByRole('button', { name: 'Save caption' }).count()).toBe(0);
    expect((await d.sdk.scheduled.get(b.job_id)).post.caption).toBe('Out soon too');
    await close();
  });
});
