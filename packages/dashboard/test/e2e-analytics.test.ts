import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

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
  it('shows engagement per day and per network as charts (uPlot) with their tables, the top posts, a CSV download and a post\'s readings over time, axe and CSP clean', async () => {
    const jobs: string[] = [];
    for (const caption of ['How did this one do', 'And this one']) {
      const r = await d.sdk.content.publish({ caption, platforms: ['twitter', 'mastodon'], publish_now: true });
      await vi.waitFor(async () => expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('published'), { timeout: 15_000, interval: 200 });
      // Publishing goes first: the refresh reads once the publisher has let the connection go.
      await vi.waitFor(async () => expect((await d.sdk.analytics.refresh(r.job_id)).targets.map((t) => t.problem)).toEqual([null, null]), { timeout: 10_000, interval: 100 });
      jobs.push(r.job_id);
    }
    const summary = await d.sdk.analytics.summary({ from: new Date(testNow().getTime() - 300 * 86_400_000).toISOString() });

    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics' }).waitFor();
    // The charts: uPlot's canvas inside an image named by its caption, drawn to the box's width.
    for (const name of [/^Engagement per day/, /^Engagement per network/]) {
      const chart = page.getByRole('img', { name });
      await chart.locator('canvas').waitFor();
      expect((await chart.locator('canvas').boundingBox())!.width).toBeGreaterThan(100);
    }
    const networks = page.getByRole('table', { name: 'Figures per network' });
    await expect.poll(async () => (await networks.getByRole('row').allTextContents()).length).toBe(3);
    const xRow = summary.by_platform.find((p) => p.platform === 'twitter')!;
    expect(await networks.getByRole('row', { name: /^X/ }).textContent()).toContain(`${xRow.jobs}${xRow.posts}${xRow.engagement}`);
    // Posts (jobs) and targets apart: each of the two posts here went to two networks.
    expect(summary.totals.posts - summary.totals.jobs).toBeGreaterThanOrEqual(2);
    await page.getByText(`${summary.totals.jobs} posts (${summary.totals.posts} targets: a post on three networks is three) with figures`).waitFor();
    const top = page.getByRole('table', { name: 'The posts with the most engagement' });
    for (const job of jobs) await top.getByRole('link', { name: job }).first().waitFor();
    const days = page.getByRole('table', { name: 'Engagement per day' });
    expect(await days.getByRole('row').count()).toBe(summary.by_day.length + 1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'analytics');

    // Download CSV: the same figures from GET /analytics/export.csv, with the session.
    const href = (await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href'))!;
    expect(href).toMatch(/^\/api\/agents\/v1\/analytics\/export\.csv\?from=/);
    const csv = await page.request.get(new URL(href, page.url()).toString());
    expect([csv.status(), csv.headers()['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(csv.headers()['content-disposition']).toMatch(/^attachment; filename="socialpub-figures-all-/);
    const rows = (await csv.text()).trimEnd().split('\r\n');
    expect(rows[0]).toMatch(/^job_id,platform,account,type,post_id,published_at,collected_at,impressions,/);
    for (const job of jobs) expect(rows.filter((r) => r.startsWith(`${job},`)).map((r) => r.split(',')[1]).sort()).toEqual(['mastodon', 'twitter']);

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
    // Its readings over time: a chart with every reading in the table under it.
    const history = card.getByRole('img', { name: `engagement of ${jobs[0]} per reading, per network: the table below lists every reading.` });
    await history.locator('canvas').waitFor();
    const readings = card.getByRole('table', { name: `Readings of ${jobs[0]}` });
    expect(await readings.getByRole('row').count()).toBe(1 + mine.targets.reduce((n, t) => n + t.history.length, 0));
    await card.getByLabel('Figure over time').selectOption('likes');
    await expect.poll(async () => (await readings.getByRole('row', { name: /^X / }).getByRole('cell').allTextContents()).at(-1)).toBe(String(x.history.at(-1)!.metrics.likes));
    await card.getByRole('img', { name: `likes of ${jobs[0]} per reading, per network: the table below lists every reading.` }).locator('canvas').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByLabel('Figure over time').scrollIntoViewIfNeeded();
    await screenshot(page, 'post-figures-history');
    await page.getByRole('link', { name: 'Analytics' }).click();

    // One network only.
    await page.getByRole('combobox', { name: /^Network/ }).selectOption('mastodon');
    await expect.poll(async () => (await networks.getByRole('row').allTextContents()).length).toBe(2);
    expect(w.errors).toEqual([]);
    // uPlot sizes its elements through the CSSOM and needs no inline style or script: nothing the CSP refused.
    expect(w.csp).toEqual([]);
    await context.close();
  });
});
