import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';

/** The Analytics screen (issue 36) in Chromium against a real daemon: the summary of posts whose figures were read. */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter', 'mastodon'] })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('analytics', () => {
  it('shows engagement per day as a chart with its table, per network and the top posts, axe clean', async () => {
    const jobs: string[] = [];
    for (const caption of ['How did this one do', 'And this one']) {
      const r = await d.sdk.content.publish({ caption, platforms: ['twitter', 'mastodon'], publish_now: true });
      await vi.waitFor(async () => expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('published'), { timeout: 15_000, interval: 200 });
      // Publishing goes first: the refresh reads once the publisher has let the connection go.
      await vi.waitFor(async () => expect((await d.sdk.analytics.refresh(r.job_id)).targets.map((t) => t.problem)).toEqual([null, null]), { timeout: 10_000, interval: 100 });
      jobs.push(r.job_id);
    }
    const summary = await d.sdk.analytics.summary({ from: new Date(Date.now() - 400 * 86_400_000).toISOString() });

    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    await page.getByRole('img', { name: /^Engagement per day/ }).waitFor();
    const networks = page.getByRole('table', { name: 'Figures per network' });
    await expect.poll(async () => (await networks.getByRole('row').allTextContents()).length).toBe(3);
    const xRow = summary.by_platform.find((p) => p.platform === 'twitter')!;
    expect(await networks.getByRole('row', { name: /^X/ }).textContent()).toContain(`${xRow.posts}${xRow.engagement}`);
    const top = page.getByRole('table', { name: 'The posts with the most engagement' });
    for (const job of jobs) await top.getByRole('link', { name: job }).first().waitFor();
    const days = page.getByRole('table', { name: 'Engagement per day' });
    expect(await days.getByRole('row').count()).toBe(summary.by_day.length + 1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'analytics');

    // Posts: a published post's latest figures, read when asked for.
    const mine = await d.sdk.analytics.posts(jobs[0]!);
    await page.getByRole('link', { name: 'Posts' }).click();
    const card = page.getByRole('article', { name: `Post ${jobs[0]}` });
    await card.getByRole('button', { name: 'Figures' }).click();
    const figures = card.getByRole('table', { name: `Figures of ${jobs[0]}` });
    await figures.waitFor();
    const x = mine.targets.find((t) => t.platform === 'twitter')!;
    const xCells = await figures.getByRole('row', { name: /^X / }).getByRole('cell').allTextContents();
    expect(xCells.slice(0, 2)).toEqual([String(x.metrics.impressions), String(x.metrics.likes)]);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Analytics' }).click();

    // One network only.
    await page.getByLabel('Network').selectOption('mastodon');
    await expect.poll(async () => (await networks.getByRole('row').allTextContents()).length).toBe(2);
    expect(w.errors).toEqual([]);
    await context.close();
  });
});
