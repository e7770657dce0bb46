import { ManualClock } from '@socialpub/daemon';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { TEST_NOW } from './support/test-time';

/**
 * A review-link decision is on the version the reviewer saw (issue 35, item 8): the owner
 * edits the caption while the page is open; the reviewer's Approve is refused, the page
 * says so and shows the new caption, and the decision on that one goes through.
 */
let browser: Browser;
let d: DashboardDaemon;
const clock = new ManualClock(TEST_NOW);

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], clock })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('a review link and an edit', () => {
  it('refuses a decision on a caption edited since the page opened, shows the new one, and takes the decision on it', async () => {
    const scheduled_for = new Date(clock.now() + 4 * 86_400_000).toISOString();
    const id = (await d.sdk.content.publish({ caption: 'Launch on Monday', platforms: ['twitter'], scheduled_for, require_approval: true })).job_id;
    const link = await d.sdk.reviewLinks.create({ job_ids: [id] });
    const context = await newContext(browser, { now: clock.now() });
    const page = await context.newPage();
    const w = watch(page);
    await page.goto(link.url);
    const before = page.getByRole('article', { name: 'Post Launch on Monday' });
    await before.waitFor();

    // The owner rewrites the caption while the reviewer reads the old one.
    await d.sdk.scheduled.update(id, { caption: 'Launch on Tuesday' });
    await before.getByRole('button', { name: 'Approve' }).click();
    const after = page.getByRole('article', { name: 'Post Launch on Tuesday' });
    await after.getByRole('alert').filter({ hasText: 'This post was changed since you opened the page' }).waitFor();
    expect((await d.sdk.scheduled.get(id)).post.status).toBe('pending_approval');

    await after.getByRole('button', { name: 'Approve' }).click();
    await after.getByText('Decision: approved').waitFor();
    const post = (await d.sdk.scheduled.get(id)).post;
    expect(post).toMatchObject({ status: 'scheduled', caption: 'Launch on Tuesday', version: 2 });
    expect(w.csp).toEqual([]);
    await context.close();
    await d.sdk.scheduled.cancel(id);
  });
});
