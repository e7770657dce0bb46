import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testClock } from './support/test-time';

/**
 * The revision loop (issue 38, item 4) in a real browser: Request changes with a comment
 * moves a post to changes_requested; the agent's edit sends it back to Review, where it is
 * approved; Posts says who approved it, when and from where, with the comment thread.
 */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], clock: testClock })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('request changes, then approve', () => {
  it('moves a post to changes_requested from Review, takes it back after an edit, and Posts says who approved it', async () => {
    const scheduled_for = new Date(testClock.now() + 3 * 86_400_000).toISOString();
    const id = (await d.sdk.content.publish({ caption: 'Spring sale: 20% off', platforms: ['twitter'], scheduled_for, require_approval: true })).job_id;
    const context = await newContext(browser, { now: testClock.now() });
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/review`);
    const card = page.getByRole('article', { name: `Post ${id}` });
    await card.getByRole('button', { name: 'Request changes' }).click();
    await card.getByRole('textbox', { name: 'What should change' }).fill('Say 25% off, not 20%');
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByRole('button', { name: 'Send request for changes' }).click();
    await page.getByText(`Asked for changes to ${id}`).waitFor();
    const asked = (await d.sdk.scheduled.get(id)).post;
    expect(asked.status).toBe('changes_requested');
    expect(asked.comments?.map((c) => [c.body, c.by, c.source])).toEqual([['Say 25% off, not 20%', d.key.email, 'dashboard']]);
    // Still in Review, marked, with what was asked; no second request on it.
    await card.getByText('changes requested', { exact: true }).first().waitFor();
    await card.getByText(/Changes requested by .+ from the dashboard \(version 1\): “Say 25% off, not 20%”/).waitFor();
    expect(await card.getByRole('button', { name: 'Request changes' }).count()).toBe(0);

    // The writer edits it: back to pending approval, then approved from Review.
    await d.sdk.scheduled.update(id, { caption: 'Spring sale: 25% off' });
    expect((await d.sdk.scheduled.get(id)).post.status).toBe('pending_approval');
    await page.reload();
    await card.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(`Approved ${id}`).waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Posts' }).click();
    const listed = page.getByRole('article', { name: `Post ${id}` });
    const history = listed.getByRole('list', { name: `Approval history of ${id}` });
    await history.getByText(new RegExp(`^Approved by ${d.key.email.replace(/[.+]/g, '\\$&')} at .+ from the dashboard \\(version 2\\)$`)).waitFor();
    await listed.getByText('1 comment').click();
    await listed.getByRole('list', { name: `Comments on ${id}` }).getByText('Say 25% off, not 20%').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await context.close();
    await d.sdk.scheduled.cancel(id);
  });

  it('a review link requests changes with its comment, and the post waits in changes_requested', async () => {
    const scheduled_for = new Date(testClock.now() + 3 * 86_400_000).toISOString();
    const id = (await d.sdk.content.publish({ caption: 'Logo reveal', platforms: ['twitter'], scheduled_for, require_approval: true })).job_id;
    const link = await d.sdk.reviewLinks.create({ job_ids: [id] });
    const context = await newContext(browser, { now: testClock.now() });
    const page = await context.newPage();
    await page.goto(link.url);
    const card = page.getByRole('article', { name: 'Post Logo reveal' });
    await card.getByRole('textbox', { name: 'Comment for Logo reveal' }).fill('Use the new logo');
    await card.getByRole('button', { name: 'Request changes' }).click();
    await card.getByText('Decision: changes requested').waitFor();
    const post = (await d.sdk.scheduled.get(id)).post;
    expect(post.status).toBe('changes_requested');
    expect(post.approvals?.map((a) => [a.action, a.source, a.comment])).toEqual([['changes_requested', 'review_link', 'Use the new logo']]);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
    await d.sdk.scheduled.cancel(id);
  });
});
