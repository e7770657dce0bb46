import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { gradientPng } from './support/png';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 7 in Chromium against a real daemon: the media library in Compose lists the
 * files already uploaded, with previews, and Use puts one in the post.
 */
let browser: Browser;
let d: DashboardDaemon;

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], zone: 'Europe/Berlin', agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

describe('the media library', () => {
  it('offers an earlier upload with its preview, and Use puts it in the post that is scheduled', async () => {
    const res = await fetch(`${d.url}/api/agents/v1/media/upload?filename=menu.png`, { method: 'POST', headers: { 'X-API-Key': d.key.api_key, 'Content-Type': 'image/png' }, body: new Uint8Array(gradientPng()) });
    const url = ((await res.json()) as { files: { prepared_url: string }[] }).files[0]!.prepared_url;
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/compose`);
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Tonight’s menu');
    const when = new Date(testNow().getTime() + 4 * 86_400_000);
    await page.getByLabel(/^Time \(/).fill(`${new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(when)}T18:00`);

    await page.getByText('Media library', { exact: true }).click();
    const library = page.getByRole('list', { name: 'Files in the library' });
    const item = library.getByRole('listitem').filter({ hasText: 'menu.png' });
    await item.getByRole('img', { name: 'image menu.png' }).waitFor();
    await item.getByRole('button', { name: 'Use menu.png' }).click();
    await item.getByRole('button', { name: 'menu.png is in the post' }).waitFor();
    expect(await item.getByRole('button', { name: 'menu.png is in the post' }).isDisabled()).toBe(true);
    await page.getByRole('region', { name: 'X preview' }).getByRole('img', { name: 'image menu.png' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('status').filter({ hasText: 'Ready' }).waitFor();
    await page.getByRole('button', { name: 'Schedule' }).click();
    const made = page.getByRole('status').filter({ hasText: /Scheduled for/ });
    await made.waitFor();
    const id = /\((job_[0-9a-z]+)\)/.exec((await made.textContent()) ?? '')![1]!;
    expect((await d.sdk.scheduled.get(id)).post.media_urls).toEqual([url]);
    expect(w.csp).toEqual([]);
    await context.close();
    await d.sdk.scheduled.cancel(id);
  });
});
