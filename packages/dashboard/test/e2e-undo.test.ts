import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 3's undo in Chromium against a real daemon: Approve and Reject in Review
 * wait 5 seconds before they are sent; Undo in that time sends nothing, and a page left
 * while one waits sends it on the way out.
 */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const held = (caption: string) => d.sdk.content.publish({ caption, platforms: ['twitter'], scheduled_for: new Date(testNow().getTime() + 3 * 86_400_000).toISOString(), require_approval: true }).then((r) => r.job_id);
const statusOf = async (id: string) => (await d.sdk.scheduled.get(id)).post.status;

async function review(): Promise<{ page: Page; w: ReturnType<typeof watch>; close(): Promise<void> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  await page.goto(`${d.url}/review`);
  return { page, w, close: () => context.close() };
}

describe('undo for Approve and Reject', () => {
  it('sends nothing when Approve is undone within the seconds it waits, and sends it when it is not', async () => {
    const id = await held('Undo me');
    const { page, w, close } = await review();
    const card = page.getByRole('article', { name: `Post ${id}` });
    await card.getByRole('button', { name: 'Approve' }).click();
    const waiting = page.getByRole('list', { name: 'Decisions you can undo' });
    await waiting.getByText('Approving “Undo me”: sent in 5 seconds.').waitFor();
    expect(await card.count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await waiting.getByRole('button', { name: 'Undo: Approving “Undo me”' }).click();
    await page.getByText('Undone: approving “Undo me” was not sent').waitFor();
    await card.waitFor();
    // Well past the 5 seconds: still waiting for approval, nothing was sent.
    await page.clock.fastForward(10_000);
    expect(await statusOf(id)).toBe('pending_approval');

    await card.getByRole('button', { name: 'Approve' }).click();
    await waiting.getByText('Approving “Undo me”').waitFor();
    expect(await statusOf(id)).toBe('pending_approval');
    await page.clock.fastForward(5_000);
    await page.getByText(`Approved ${id}`).waitFor();
    expect(await statusOf(id)).toBe('scheduled');
    expect(await waiting.count()).toBe(0);
    expect(w.csp).toEqual([]);
    await close();
    await d.sdk.scheduled.cancel(id);
  });

  it('undoes Reject selected after it was confirmed, and keeps the posts waiting', async () => {
    const ids = [await held('Keep one'), await held('Keep two')];
    const { page, close } = await review();
    for (const id of ids) await page.getByRole('article', { name: `Post ${id}` }).getByRole('checkbox', { name: /^Select/ }).check();
    await page.getByRole('button', { name: 'Reject selected' }).click();
    await page.getByRole('alertdialog', { name: 'Reject 2 posts?' }).getByRole('button', { name: 'Reject' }).click();
    const waiting = page.getByRole('list', { name: 'Decisions you can undo' });
    await waiting.getByText('Rejecting 2 posts: sent in 5 seconds.').waitFor();
    await waiting.getByRole('button', { name: 'Undo: Rejecting 2 posts' }).click();
    await page.clock.fastForward(10_000);
    for (const id of ids) {
      await page.getByRole('article', { name: `Post ${id}` }).waitFor();
      expect(await statusOf(id)).toBe('pending_approval');
    }
    await close();
    for (const id of ids) await d.sdk.scheduled.cancel(id);
  });

  it('sends a waiting decision when the page is left before its time', async () => {
    const id = await held('Leave now');
    const { page, close } = await review();
    await page.getByRole('article', { name: `Post ${id}` }).getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('list', { name: 'Decisions you can undo' }).waitFor();
    await page.goto(`${d.url}/signin`);
    await expect.poll(() => statusOf(id), { timeout: 5_000 }).toBe('scheduled');
    await close();
    await d.sdk.scheduled.cancel(id);
  });
});
