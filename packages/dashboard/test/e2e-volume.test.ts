import { openDatabase } from '@socialpub/daemon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 5 (volume) in Chromium against a real daemon: search and filters in Review
 * and Posts kept in the address, "failed" finding a partly failed post, a bulk bar that stays
 * in view, and a month calendar whose entries wrap instead of being cut, whose colours say
 * the status (with a legend), whose "+N more" follows the entries it counts, and whose clicked
 * entry opens in a side panel with Approve, Reject and Request changes.
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

/** Noon in Berlin, n days from the tests' now (its local date and instant). */
function day(n: number): { date: string; iso: string } {
  const t = new Date(testNow().getTime() + n * 86_400_000);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t);
  return { date, iso: `${date}T12:00:00+01:00` };
}

async function signedIn(width = 1280): Promise<{ page: Page; w: ReturnType<typeof watch>; close(): Promise<void> }> {
  const context = await newContext(browser, { width });
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  return { page, w, close: () => context.close() };
}

const held = (caption: string, platforms: ('twitter' | 'threads')[], when: string) => d.sdk.content.publish({ caption, platforms, scheduled_for: when, timezone: ZONE, require_approval: true }).then((r) => r.job_id);

describe('Review and Posts at volume', () => {
  it('narrows Review by search, network and dates kept in the address, and keeps the bulk bar in view', async () => {
    const ids = [
      await held('Espresso tasting on Friday', ['twitter'], day(2).iso),
      await held('Espresso, now on Threads', ['threads'], day(5).iso),
      await held('Tea time', ['twitter'], day(2).iso),
    ];
    for (let i = 0; i < 6; i++) ids.push(await held(`Filler post ${i}`, ['twitter'], day(9).iso));
    const { page, w, close } = await signedIn();
    await page.goto(`${d.url}/review`);
    const cards = page.getByRole('article', { name: /^Post job_/ });
    await expect.poll(() => cards.count()).toBe(9);

    const filters = page.getByRole('search', { name: 'Filter posts' });
    await filters.getByRole('searchbox', { name: 'Search' }).fill('ESPRESSO');
    await expect.poll(() => cards.count()).toBe(2);
    await filters.getByRole('combobox', { name: 'Network' }).selectOption({ label: 'Threads' });
    await expect.poll(() => cards.count()).toBe(1);
    await page.getByRole('article', { name: `Post ${ids[1]}` }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('ESPRESSO');
    expect(new URL(page.url()).searchParams.get('platform')).toBe('threads');

    // A reload (or a shared link) shows the same list.
    await page.reload();
    await page.getByRole('article', { name: `Post ${ids[1]}` }).waitFor();
    expect(await cards.count()).toBe(1);
    expect(await filters.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('ESPRESSO');

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => cards.count()).toBe(9);
    expect(new URL(page.url()).search).toBe('');
    // One local day, in the person's zone: the two posts at noon two days ahead.
    await filters.getByLabel('From', { exact: true }).fill(day(2).date);
    await filters.getByLabel('To', { exact: true }).fill(day(2).date);
    await expect.poll(() => cards.count()).toBe(2);
    expect((await cards.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))).sort()).toEqual([`Post ${ids[0]}`, `Post ${ids[2]}`].sort());

    // The bulk bar stays in view at the bottom of a long list.
    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => cards.count()).toBe(9);
    await page.getByRole('checkbox', { name: 'Select all' }).check();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
    const bar = (await page.getByRole('group', { name: 'Selected posts' }).boundingBox())!;
    expect(bar.y).toBeGreaterThanOrEqual(0);
    expect(bar.y).toBeLessThan(900);
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await close();
    for (const id of ids) await d.sdk.scheduled.cancel(id);
  });

  it('finds a partly failed post under "failed" in Posts, with the status in the address', async () => {
    const partly = (await d.sdk.content.publish({ caption: 'Half went out', platforms: ['twitter', 'threads'], scheduled_for: day(3).iso, timezone: ZONE })).job_id;
    const fine = (await d.sdk.content.publish({ caption: 'All is well', platforms: ['twitter'], scheduled_for: day(3).iso, timezone: ZONE })).job_id;
    const db = openDatabase(`${d.dataDir}/socialpub.db`);
    try {
      db.prepare("UPDATE targets SET status = 'published' WHERE job_id = ? AND platform = 'threads'").run(partly);
      db.prepare("UPDATE targets SET status = 'failed', error_code = 'platform_error', error_message = 'X refused it' WHERE job_id = ? AND platform = 'twitter'").run(partly);
    } finally {
      db.close();
    }
    expect((await d.sdk.scheduled.get(partly)).post.status).toBe('partially_published');
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/posts`);
    await page.getByRole('article', { name: `Post ${fine}` }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'failed (wholly or partly)' });
    await page.getByRole('article', { name: `Post ${partly}` }).waitFor();
    await expect.poll(() => page.getByRole('article', { name: `Post ${fine}` }).count()).toBe(0);
    expect(new URL(page.url()).searchParams.get('status')).toBe('failed');
    await page.goto(`${d.url}/posts?status=failed&q=half`);
    await page.getByRole('article', { name: `Post ${partly}` }).waitFor();
    expect(await page.getByRole('article', { name: /^Post job_/ }).count()).toBe(1);
    await close();
    await d.sdk.scheduled.cancel(fine);
  });
});

describe('the month calendar at volume', () => {
  it('wraps entries, tells cancelled from scheduled with a legend, puts "+N more" last and opens an entry at the side', async () => {
    const target = day(3);
    const long = 'Autumn menu launch with the whole kitchen team';
    const scheduled = (await d.sdk.content.publish({ caption: long, platforms: ['twitter'], scheduled_for: target.iso, timezone: ZONE })).job_id;
    const cancelled = (await d.sdk.content.publish({ caption: 'Called off event', platforms: ['twitter'], scheduled_for: target.iso, timezone: ZONE })).job_id;
    await d.sdk.scheduled.cancel(cancelled);
    const crowded = day(4);
    const many: string[] = [];
    for (let i = 0; i < 5; i++) many.push(await held(`Crowded ${i}`, ['threads'], crowded.iso.replace('12:00', `1${i}:00`)));
    const month = `${target.date.slice(0, 8)}01`;

    for (const width of [1280, 375]) {
      const { page, w, close } = await signedIn(width);
      await page.goto(`${d.url}/calendar?date=${month}`);
      const cell = page.locator(`td.fc-day[data-date="${target.date}"]`);
      const entry = cell.locator('.fc-event', { hasText: 'Autumn menu' });
      await entry.waitFor();
      // The network and the caption's start are there in full, wrapped, at every width (never a dot, never cut).
      const cut = await entry.evaluate((el) => {
        const title = el.querySelector('.fc-event-title') as HTMLElement;
        return { text: title.textContent, cut: title.scrollWidth > title.clientWidth + 1, dot: el.classList.contains('fc-daygrid-dot-event') };
      });
      expect(cut).toEqual({ text: `X: ${long}`, cut: false, dot: false });
      // Cancelled and scheduled look different, and the legend says which is which.
      const looks = async (text: string) =>
        cell.locator('.fc-event', { hasText: text }).evaluate((el) => {
          const s = getComputedStyle(el);
          return { background: s.backgroundColor, line: getComputedStyle(el.querySelector('.fc-event-main')!).textDecorationLine };
        });
      const a = await looks('Autumn menu');
      const b = await looks('Called off');
      expect(a.background).not.toBe(b.background);
      expect([a.line, b.line]).toEqual(['none', 'line-through']);
      const legend = page.getByRole('list', { name: 'What the colours mean' });
      expect(await legend.getByRole('listitem').allTextContents()).toEqual(expect.arrayContaining([' scheduled', ' cancelled', ' waiting for approval']));
      // "+2 more posts" comes after the three entries it follows.
      const crowdedCell = page.locator(`td.fc-day[data-date="${crowded.date}"]`);
      await crowdedCell.getByText('+2 more posts').waitFor();
      const order = await crowdedCell.locator('.fc-event').allTextContents();
      expect(order).toHaveLength(4);
      expect(order[3]).toContain('+2 more posts');
      expect(order.slice(0, 3).every((t) => t.includes('Crowded'))).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      expect(w.csp).toEqual([]);
      await close();
    }

    // A clicked entry opens at the side, in view, with the decisions.
    const { page, close } = await signedIn();
    await page.goto(`${d.url}/calendar?date=${month}`);
    const entry = page.locator(`td.fc-day[data-date="${crowded.date}"] .fc-event`, { hasText: 'Crowded 0' });
    await entry.scrollIntoViewIfNeeded();
    await entry.click();
    const panel = page.getByRole('complementary', { name: 'Selected post' });
    await panel.getByRole('heading', { name: 'Crowded 0' }).waitFor();
    const box = (await panel.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(900 + 1);
    expect(await panel.getByRole('heading', { name: 'Crowded 0' }).evaluate((el) => el === document.activeElement)).toBe(true);
    await panel.getByRole('button', { name: 'Request changes' }).waitFor();
    await panel.getByRole('button', { name: 'Reject' }).waitFor();
    await panel.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(`Approved ${many[0]}`).waitFor();
    expect((await d.sdk.scheduled.get(many[0]!)).post.status).toBe('scheduled');
    expect(await seriousViolations(page)).toEqual([]);
    await close();
    for (const id of [scheduled, ...many]) await d.sdk.scheduled.cancel(id);
  });
});
