import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium, newContext, screenshot, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { gradientPng } from './support/png';
import { testNow } from './support/test-time';

/**
 * Issue 35: the dashboard follows the event stream rather than polling, and a target a platform's 429 holds shows when it is tried next and why, in Posts
 * and in the calendar's selected post, never `scheduled` at a time already past with no
 * word. The sandbox's X answers every publish 429 (its reset 15 minutes away).
 */
let browser: Browser;
let d: DashboardDaemon;
const ZONE = 'Europe/Berlin';

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], zone: ZONE, agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const berlin = (iso: string, parts: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { timeZone: ZONE, ...parts }).format(new Date(iso));

describe('a held target', () => {
  it("shows 'Waiting for X's rate limit until …' in Posts and in the calendar's selected post", async () => {
    await d.sdk.sandbox.setFaults({ twitter: { rate_limited: 1 } });
    const job = await d.sdk.content.publish({ caption: 'Held by X', platforms: ['twitter'], publish_now: true });
    const held = await vi.waitFor(
      async () => {
        const t = (await d.sdk.scheduled.get(job.job_id)).post.targets[0]!;
        expect(t.hold?.reason).toBe('rate_limit');
        return t;
      },
      { timeout: 15_000, interval: 100 },
    );
    expect(held.status).toBe('scheduled');
    const at = held.next_attempt_at!;
    // Said as the person's clock reads it: the time alone today, the date too on another day.
    const sameDay = berlin(at, { dateStyle: 'short' }) === berlin(testNow().toISOString(), { dateStyle: 'short' });
    const until = sameDay ? berlin(at, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }) : null;
    const line = new RegExp(`^Waiting for X's rate limit until ${until ?? '.+'} \\(X rate limit reached`);

    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/posts`);
    const card = page.getByRole('article', { name: `Post ${job.job_id}` });
    const hold = card.getByText(/^Waiting for X's rate limit until/);
    await hold.waitFor();
    expect(await hold.textContent()).toMatch(line);
    expect(await card.locator('time', { hasText: until ?? /./ }).getAttribute('datetime')).toBe(at);
    await screenshot(page, 'posts-held');

    await page.goto(`${d.url}/calendar?date=${berlin(testNow().toISOString(), { year: 'numeric', month: '2-digit', day: '2-digit' }).split('/').reverse().join('-')}`);
    await page.getByRole('button', { name: 'Week' }).click();
    const entry = page.locator('.fc-event', { hasText: 'Held by X' }).first();
    await entry.focus();
    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Selected post' });
    expect(await panel.getByText(/^Waiting for X's rate limit until/).textContent()).toMatch(line);

    // Cancelled, nothing holds it: the line is gone.
    expect(w.csp).toEqual([]);
    await d.sdk.sandbox.clearFaults();
    await d.sdk.scheduled.cancel(job.job_id);
    await page.goto(`${d.url}/posts`);
    await page.getByRole('article', { name: `Post ${job.job_id}` }).getByText('cancelled').first().waitFor();
    expect(await page.getByRole('article', { name: `Post ${job.job_id}` }).getByText(/Waiting for/).count()).toBe(0);
    await context.close();
  }, 60_000);
});

describe('a media link in Compose', () => {
  let media: Server | undefined;
  afterAll(() => media?.close());

  it('is ready once its task ends, read on the event stream: two status reads over a 2.5-s fetch, not one a second', async () => {
    const png = gradientPng();
    media = createServer((_req, res) => {
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(png.length) }).end(png), 2_500);
    });
    media.listen(0, '127.0.0.1');
    await once(media, 'listening');
    const url = `http://127.0.0.1:${(media.address() as AddressInfo).port}/slow.png`;

    const context = await newContext(browser);
    const page = await context.newPage();
    let reads = 0;
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.includes('/media/status/')) reads++;
    });
    await d.signIn(page);
    await page.getByRole('link', { name: 'Compose' }).click();
    await page.getByLabel('Media link').fill(url);
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByRole('listitem').filter({ hasText: 'slow.png' }).getByText('ready').waitFor({ timeout: 15_000 });
    expect(reads).toBeLessThanOrEqual(2);
    await context.close();
  }, 60_000);
});
