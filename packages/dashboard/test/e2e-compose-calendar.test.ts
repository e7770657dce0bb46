import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, overflowing, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { gradientPng } from './support/png';
import { testNow } from './support/test-time';

/**
 * Compose, Calendar and Posts in Chromium against a real daemon: a post scheduled with an
 * uploaded image, a drag across a DST change and one into a DST gap (PATCH's answer shown),
 * the history with a take-down, the pages at 375 px and in dark mode, axe on each.
 */
let browser: Browser;
let d: DashboardDaemon;
const ZONE = 'Europe/Berlin';

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter', 'instagram', 'tiktok'], zone: ZONE, agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

/** The next spring-forward Sunday in Europe (last Sunday of March) at least a week ahead. */
function nextSpringForward(now = testNow()): Date {
  for (let y = now.getUTCFullYear(); ; y++) {
    const d = new Date(Date.UTC(y, 2, 31));
    d.setUTCDate(31 - d.getUTCDay());
    if (d.getTime() - now.getTime() > 7 * 86_400_000) return d;
  }
}
const ymd = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

async function openCalendarAt(page: Page, month: Date) {
  await page.goto(`${d.url}/calendar`);
  const title = month.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const heading = page.locator('.fc-toolbar-title');
  await heading.waitFor();
  for (let i = 0; i < 24 && (await heading.textContent()) !== title; i++) await page.getByRole('button', { name: 'Next', exact: true }).click();
  expect(await heading.textContent()).toBe(title);
}

async function drag(page: Page, from: string, toDate: string) {
  const src = page.locator('.fc-event', { hasText: from }).first();
  const box = (await src.boundingBox())!;
  const target = (await page.locator(`td.fc-day[data-date="${toDate}"]`).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  const steps = 12;
  for (let i = 1; i <= steps; i++) await page.mouse.move(box.x + box.width / 2 + ((target.x + target.width / 2 - box.x - box.width / 2) * i) / steps, box.y + box.height / 2 + ((target.y + target.height / 2 - box.y - box.height / 2) * i) / steps);
  await page.mouse.up();
}

describe('compose', () => {
  it('schedules a post with an uploaded image, checked live', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByRole('checkbox', { name: 'Instagram', exact: true }).check();
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Spring menu is here #food @chef');
    await page.getByLabel('Upload media').setInputFiles({ name: 'spring menu.png', mimeType: 'image/png', buffer: gradientPng() });
    await page.getByRole('listitem').filter({ hasText: 'spring menu.png' }).getByText('ready', { exact: true }).waitFor();
    const day = ymd(addDays(testNow(), 6));
    await page.getByLabel(/^Time \(/).fill(`${day}T12:15`);
    // Live checks: Instagram pulls media from a public URL, which this loopback daemon has not.
    const checks = page.getByRole('status').filter({ hasText: /Ready|Not ready/ });
    await expect.poll(() => checks.textContent()).toMatch(/Not ready yet:.*media_urls.*Instagram/);
    // Previews: instagram feed cropped 4:5, twitter 16:9; the uploaded image is shown.
    expect(await page.locator('.preview-instagram figure.ratio-4x5 img').count()).toBe(1);
    expect(await page.locator('.preview-twitter figure.ratio-16x9 img').count()).toBe(1);
    await expect.poll(() => page.locator('.preview-instagram img').evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBe(96);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'compose', true);
    await page.getByRole('checkbox', { name: 'Instagram', exact: true }).uncheck();
    await expect.poll(() => checks.textContent()).toContain('Ready: 1 target.');
    await page.getByRole('button', { name: 'Schedule' }).click();
    const done = page.getByRole('status').filter({ hasText: /Scheduled .*\(job_/ });
    await done.waitFor();
    const jobId = /\((job_[^)]+)\)/.exec((await done.textContent())!)![1]!;
    const post = (await d.sdk.scheduled.get(jobId)).post;
    expect(post.scheduled_local).toBe(`${day}T12:15:00`);
    expect(post.timezone).toBe(ZONE);
    expect(post.media_urls).toHaveLength(1);
    expect(post.media_urls[0]).toMatch(/\/files\/[^/]+\/spring-menu\.png$/);
    expect(post.platforms).toEqual(['twitter']);
    expect(w.csp).toEqual([]);
    await d.sdk.scheduled.cancel(jobId);
    await context.close();
  });

  it('shows the validation problems /content/validate finds', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/compose`);
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('x'.repeat(300));
    await page.getByRole('status').filter({ hasText: 'twitter captions are at most 280 characters' }).waitFor();
    expect(await page.locator('.preview-twitter .counter').first().textContent()).toBe('300 of 280 characters (a link counts as 23, an emoji or a Chinese, Japanese or Korean character as 2) — 20 over the limit: the struck-through part is cut');
    expect(await page.locator('.preview-twitter .tok-over').textContent()).toBe('x'.repeat(20));
    await context.close();
  });

  it('schedules a repeating post; the calendar shows its coming occurrences', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/compose`);
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Monthly tip: back up your data');
    await page.getByRole('radio', { name: 'Repeat' }).check();
    await page.getByLabel(/^Time \(/).fill(`${ymd(addDays(testNow(), 2))}T08:00`);
    await page.getByRole('combobox', { name: 'Every' }).selectOption('MONTHLY');
    await page.getByLabel('Times').fill('8');
    await page.getByRole('button', { name: 'Schedule' }).click();
    await page.getByRole('status').filter({ hasText: /\(job_/ }).waitFor();
    const [series] = (await d.sdk.series.list()).series;
    expect(series).toMatchObject({ total: 8, rrule: expect.stringContaining('FREQ=MONTHLY') });
    // Jobs exist 30 days ahead; later occurrences are planned, and shown as such.
    const planned = series!.next_occurrences.find((o) => o.job_id === null)!;
    await page.goto(`${d.url}/calendar?date=${planned.scheduled_for.slice(0, 10)}`);
    await page.getByText(`↻ Repeat ${planned.occurrence}/8: Monthly tip`).first().waitFor();
    await d.sdk.series.cancel(series!.series_id);
    await context.close();
  });

  it("offers TikTok exactly the privacy levels of the creator's current info, named as TikTok names them", async () => {
    const res = await fetch(`${d.url}/api/agents/v1/platforms/tiktok/creator-info`, { headers: { Authorization: `Bearer ${d.key.api_key}` } });
    const { creator_info } = (await res.json()) as { creator_info: { privacy_level_options: string[] } };
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.goto(`${d.url}/compose`);
    await page.getByRole('checkbox', { name: 'TikTok', exact: true }).check();
    await page.getByText('TikTok options', { exact: true }).click();
    const select = page.getByRole('group', { name: 'TikTok options' }).getByRole('combobox', { name: 'Who can watch' });
    const names: Record<string, string> = { PUBLIC_TO_EVERYONE: 'Everyone', MUTUAL_FOLLOW_FRIENDS: 'Friends (followers you follow back)', FOLLOWER_OF_CREATOR: 'Followers', SELF_ONLY: 'Only me' };
    await expect.poll(async () => (await select.locator('option').allTextContents()).sort()).toEqual(['(default)', ...creator_info.privacy_level_options.map((v) => names[v])].sort());
    expect(creator_info.privacy_level_options.length).toBeGreaterThan(0);
    await context.close();
  });
});

describe('calendar', () => {
  it('moves a post to another day across a DST change, keeping its local time', async () => {
    const sunday = nextSpringForward();
    const thursday = addDays(sunday, -3);
    const tuesday = addDays(sunday, 2);
    const r = await d.sdk.content.publish({ caption: 'Drag me across DST', platforms: ['twitter'], scheduled_for: `${ymd(thursday)}T10:00:00`, timezone: ZONE });
    expect(r.scheduled_for).toBe(`${ymd(thursday)}T09:00:00.000Z`); // CET, UTC+1
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await openCalendarAt(page, sunday);
    await drag(page, 'Drag me across DST', ymd(tuesday));
    await page.getByRole('status').filter({ hasText: `Updated ${r.job_id}` }).waitFor();
    const post = (await d.sdk.scheduled.get(r.job_id)).post;
    expect(post.scheduled_local).toBe(`${ymd(tuesday)}T10:00:00`);
    expect(post.scheduled_for).toBe(`${ymd(tuesday)}T08:00:00.000Z`); // CEST, UTC+2
    await expect.poll(() => page.locator(`td.fc-day[data-date="${ymd(tuesday)}"] .fc-event`).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'calendar');
    expect(w.csp).toEqual([]);
    expect(w.errors).toEqual([]);
    await d.sdk.scheduled.cancel(r.job_id);
    await context.close();
  });

  it('refuses a drag into the DST gap with the reason, and the post stays', async () => {
    const sunday = nextSpringForward();
    const saturday = addDays(sunday, -1);
    const r = await d.sdk.content.publish({ caption: 'Night owl post', platforms: ['twitter'], scheduled_for: `${ymd(saturday)}T02:30:00`, timezone: ZONE });
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await openCalendarAt(page, sunday);
    await drag(page, 'Night owl post', ymd(sunday));
    const alert = page.getByRole('alert').filter({ hasText: 'Not moved' });
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/02:00|03:00|gap|does not exist|skipped/i);
    expect((await d.sdk.scheduled.get(r.job_id)).post.scheduled_local).toBe(`${ymd(saturday)}T02:30:00`);
    await expect.poll(() => page.locator(`td.fc-day[data-date="${ymd(saturday)}"] .fc-event`, { hasText: 'Night owl post' }).count()).toBe(1);
    await d.sdk.scheduled.cancel(r.job_id);
    await context.close();
  });

  it('filters by platform and status, and has week and list views', async () => {
    const later = `${ymd(addDays(testNow(), 2))}T09:00:00`;
    const a = await d.sdk.content.publish({ caption: 'Only on instagram', platforms: ['instagram'], media_urls: ['https://cdn.example.com/a.jpg'], scheduled_for: later, timezone: ZONE });
    const b = await d.sdk.content.publish({ caption: 'Only on twitter', platforms: ['twitter'], scheduled_for: later, timezone: ZONE });
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    // Opened at the posts' day: its month for List and its week for Week, whatever today is
    // (two days ahead is next month on a month's last days, next week on a Sunday).
    await page.goto(`${d.url}/calendar?date=${later.slice(0, 10)}`);
    await page.getByRole('button', { name: 'List' }).click();
    await page.getByText('Only on twitter').first().waitFor();
    await page.getByRole('checkbox', { name: 'Instagram', exact: true }).check();
    await expect.poll(() => page.getByText('Only on twitter').count()).toBe(0);
    expect(await page.getByText('Only on instagram').count()).toBeGreaterThan(0);
    await page.getByLabel('Status').selectOption('published');
    await expect.poll(() => page.getByText('Only on instagram').count()).toBe(0);
    await page.getByRole('button', { name: 'Week' }).click();
    await page.locator('.fc-timeGridWeek-view').waitFor();
    // The keyboard's way to move a post: focus its entry, Enter, a new time.
    await page.getByLabel('Status').selectOption('all');
    await page.getByRole('checkbox', { name: 'Instagram', exact: true }).uncheck();
    const entry = page.locator('.fc-event', { hasText: 'Only on twitter' }).first();
    await entry.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Selected post' });
    await panel.getByLabel(/New time/).fill(`${later.slice(0, 10)}T17:45`);
    await panel.getByRole('button', { name: 'Save time' }).click();
    await page.getByRole('status').filter({ hasText: `Updated ${b.job_id}` }).waitFor();
    expect((await d.sdk.scheduled.get(b.job_id)).post.scheduled_local).toBe(`${later.slice(0, 10)}T17:45:00`);
    for (const id of [a.job_id, b.job_id]) await d.sdk.scheduled.cancel(id);
    await context.close();
  });
});

describe('posts', () => {
  it('shows each target outcome with its link, and takes a post down', async () => {
    const r = await d.sdk.content.publish({ caption: 'Out now, then gone', platforms: ['twitter'], publish_now: true });
    await vi.waitFor(async () => expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('published'), { timeout: 15_000, interval: 200 });
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.getByRole('link', { name: 'Posts' }).click();
    const card = page.getByRole('article', { name: `Post ${r.job_id}` });
    const url = (await d.sdk.scheduled.get(r.job_id)).post.targets[0]!.post_url!;
    expect(await card.getByRole('link', { name: url }).getAttribute('href')).toBe(url);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'posts');
    await card.getByRole('button', { name: 'Take down' }).click();
    await page.getByRole('alertdialog', { name: 'Take down this post?' }).getByRole('button', { name: 'Take down' }).click();
    await page.getByRole('status').filter({ hasText: 'X post removed' }).waitFor();
    expect((await d.sdk.scheduled.get(r.job_id)).post.status).toBe('removed');
    await context.close();
  });
});

describe('small screens and dark mode', () => {
  it('fits 375 px without sideways scrolling and follows the dark preference', async () => {
    const later = `${ymd(addDays(testNow(), 3))}T09:00:00`;
    const r = await d.sdk.content.publish({ caption: 'Check on a phone #mobile https://example.com/a-rather-long-link-that-must-wrap-nicely', platforms: ['twitter', 'instagram'], media_urls: ['https://cdn.example.com/a.jpg'], scheduled_for: later, timezone: ZONE, require_approval: true });
    const context = await newContext(browser, { width: 375, dark: true });
    const page = await context.newPage();
    await d.signIn(page);
    for (const path of ['/review', '/calendar', '/compose', '/posts', '/connections', '/settings']) {
      await page.goto(`${d.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (path === '/calendar') await page.locator('.fc-toolbar-title').waitFor();
      expect(await overflowing(page), path).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(375);
      expect(await seriousViolations(page), path).toEqual([]);
    }
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 19, 22)');
    await page.goto(`${d.url}/review`);
    await page.getByRole('article', { name: `Post ${r.job_id}` }).waitFor();
    await screenshot(page, 'review-375-dark', true);
    await d.sdk.scheduled.cancel(r.job_id);
    await context.close();
  });

  it('is usable by keyboard: tab to the navigation and open a screen', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await d.signIn(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    let found = false;
    for (let i = 0; i < 12 && !found; i++) {
      await page.keyboard.press('Tab');
      found = (await page.evaluate(() => document.activeElement?.textContent)) === 'Settings';
    }
    expect(found).toBe(true);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    await page.getByRole('tab', { name: 'API keys' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('tab', { name: 'Approval' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Approval');
    await context.close();
  });
});
