import { ManualClock } from '@socialpub/daemon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { TEST_NOW } from './support/test-time';

/**
 * Sessions end with their key (issue 35, item 9), in Chromium on a real daemon: a browser
 * signed in with a key is signed out when Settings revokes that key; Settings lists the
 * open sessions and ends one, which signs that browser out.
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

/** Signs a fresh browser in with an API key through the sign-in page. */
async function signInWithKey(key: string): Promise<Page> {
  const page = await (await newContext(browser, { now: clock.now() })).newPage();
  await page.goto(`${d.url}/signin`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return page;
}

/** Whether the page's session still opens the app (a dead one is sent to the sign-in page). */
async function signedOut(page: Page): Promise<boolean> {
  await page.goto(`${d.url}/settings`);
  await page.waitForURL((u) => u.pathname === '/signin' || u.pathname === '/settings');
  if (new URL(page.url()).pathname === '/signin') return true;
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
  return new URL(page.url()).pathname === '/signin';
}

describe('sessions in Settings', () => {
  it('signs out the browser a key signed in when Settings revokes that key, and lists it until then', async () => {
    const owner = await (await newContext(browser, { now: clock.now() })).newPage();
    const w = watch(owner);
    await d.signIn(owner);
    await owner.goto(`${d.url}/settings`);
    await owner.getByLabel('Key name').fill('phone');
    await owner.getByRole('button', { name: 'Generate key' }).click();
    const key = await owner.getByLabel('New key').inputValue();
    const prefix = (await owner.getByRole('row', { name: /phone/ }).locator('code').textContent())!;
    await owner.getByRole('button', { name: 'Done' }).click();

    const phone = await signInWithKey(key);
    await owner.reload();
    const sessions = owner.getByRole('table', { name: 'Open sessions' });
    await sessions.getByRole('row', { name: new RegExp(`with key ${prefix}`) }).waitFor();
    await expect(sessions.getByRole('row', { name: /this browser/ }).count()).resolves.toBe(1);
    expect(await seriousViolations(owner)).toEqual([]);

    await owner.getByRole('button', { name: `Revoke ${prefix}` }).click();
    await owner.getByRole('alertdialog', { name: `Revoke the key ${prefix}?` }).getByRole('button', { name: 'Revoke the key' }).click();
    await owner.getByRole('status').filter({ hasText: `Revoked ${prefix}` }).waitFor();
    await sessions.getByRole('row', { name: new RegExp(`with key ${prefix}`) }).waitFor({ state: 'detached' });
    expect(await signedOut(phone)).toBe(true);
    expect(await signedOut(owner)).toBe(false);
    expect(w.csp).toEqual([]);
    await phone.context().close();
    await owner.context().close();
  });

  it('ends another browser’s session from the list: that browser is signed out, this one stays', async () => {
    const owner = await (await newContext(browser, { now: clock.now() })).newPage();
    await d.signIn(owner);
    // A minute later on the daemon's clock: the other browser's session is the newest.
    await clock.advance(60_000);
    const other = await (await newContext(browser, { now: clock.now() })).newPage();
    await d.signIn(other);
    await owner.goto(`${d.url}/settings`);
    const sessions = owner.getByRole('table', { name: 'Open sessions' });
    const others = sessions.getByRole('button', { name: /^End session with a sign-in link/ });
    await others.first().waitFor();
    const before = await others.count();
    expect(before).toBeGreaterThanOrEqual(1);
    // The newest session is the other browser's (the list is oldest first).
    await others.last().click();
    await owner.getByRole('status').filter({ hasText: 'Ended the session' }).waitFor();
    await expect(others.count()).resolves.toBe(before - 1);
    expect(await signedOut(other)).toBe(true);
    expect(await signedOut(owner)).toBe(false);
    await other.context().close();
    await owner.context().close();
  });
});
