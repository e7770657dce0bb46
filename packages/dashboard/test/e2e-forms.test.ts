import { openAdmin } from '@socialpub/daemon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';
import { testNow } from './support/test-time';

/**
 * Issue 38, item 6 (forms in words) in Chromium against a real daemon: platform options
 * with labels, help and choices as the networks name them (never `is_aigc` or
 * `MUTUAL_FOLLOW_FRIENDS`), a poll written in a poll editor and tags as chips (no JSON to
 * type), and "Hold for approval" showing the real setting.
 */
let browser: Browser;
let d: DashboardDaemon;
const ZONE = 'Europe/Berlin';

beforeAll(async () => {
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter', 'tiktok', 'bluesky'], zone: ZONE, agentApproval: false })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
});

const later = () => {
  const t = new Date(testNow().getTime() + 5 * 86_400_000);
  return `${new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(t)}T11:30`;
};

async function compose(): Promise<{ page: Page; w: ReturnType<typeof watch>; close(): Promise<void> }> {
  const context = await newContext(browser);
  const page = await context.newPage();
  const w = watch(page);
  await d.signIn(page);
  await page.goto(`${d.url}/compose`);
  return { page, w, close: () => context.close() };
}

describe('platform options in words', () => {
  it("labels TikTok's options and names their choices as TikTok does, with help; no field names, no JSON box", async () => {
    const { page, w, close } = await compose();
    await page.getByRole('checkbox', { name: 'TikTok', exact: true }).check();
    await page.getByText('TikTok options', { exact: true }).click();
    const group = page.getByRole('group', { name: 'TikTok options' });
    await group.getByRole('combobox', { name: 'AI-generated content' }).waitFor();
    await group.getByRole('combobox', { name: 'Turn off Duets' }).waitFor();
    await group.getByText('TikTok shows "Creator labeled as AI-generated" on the post.').waitFor();
    await expect.poll(() => group.getByRole('combobox', { name: 'Who can watch' }).locator('option').allTextContents()).toContain('Only me');
    const text = (await page.locator('main').textContent()) ?? '';
    for (const raw of ['is_aigc', 'MUTUAL_FOLLOW_FRIENDS', 'SELF_ONLY', 'privacy_level', 'disable_duet', 'JSON']) expect(text).not.toContain(raw);
    // The choice reaches the request as the API names it.
    await group.getByRole('combobox', { name: 'AI-generated content' }).selectOption({ label: 'Yes' });
    expect(await seriousViolations(page)).toEqual([]);
    expect(w.csp).toEqual([]);
    await close();
  });

  it('writes an X poll in a poll editor and Bluesky languages as chips, and the post carries them', async () => {
    const { page, w, close } = await compose();
    await page.getByRole('checkbox', { name: 'X', exact: true }).check();
    await page.getByRole('checkbox', { name: 'Bluesky', exact: true }).check();
    await page.getByLabel('Caption', { exact: true }).fill('Tea or coffee?');
    await page.getByLabel(/^Time \(/).fill(later());

    await page.getByText('X options', { exact: true }).click();
    const x = page.getByRole('group', { name: 'X options' });
    const poll = x.getByRole('group', { name: 'Poll' });
    await poll.getByLabel('Choice 1').fill('Tea');
    await poll.getByLabel('Choice 2').fill('Coffee');
    await poll.getByRole('button', { name: 'Add a choice' }).click();
    await poll.getByLabel('Choice 3').fill('Juice');
    await poll.getByRole('combobox', { name: 'Open for' }).selectOption({ label: '3 days' });
    // The preview draws the poll at once.
    const preview = page.getByRole('region', { name: 'X preview' }).getByRole('list', { name: 'Poll' });
    await expect.poll(() => preview.getByRole('listitem').allTextContents()).toEqual(['Tea', 'Coffee', 'Juice']);
    await page.getByRole('region', { name: 'X preview' }).getByText('Open for 3 days').waitFor();
    await poll.getByRole('button', { name: 'Remove choice 3' }).click();
    await expect.poll(() => preview.getByRole('listitem').allTextContents()).toEqual(['Tea', 'Coffee']);

    await page.getByText('Bluesky options', { exact: true }).click();
    const bsky = page.getByRole('group', { name: 'Bluesky options' });
    const langs = bsky.getByRole('group', { name: 'Languages (e.g. en, fr)' });
    await langs.getByRole('textbox', { name: 'Add to Languages (e.g. en, fr)' }).fill('en');
    await langs.getByRole('textbox', { name: 'Add to Languages (e.g. en, fr)' }).press('Enter');
    await expect.poll(() => langs.getByRole('listitem').allTextContents()).toEqual(['en ×']);
    await langs.getByRole('textbox', { name: 'Add to Languages (e.g. en, fr)' }).fill('fr, de');
    await expect.poll(() => langs.getByRole('listitem').allTextContents()).toEqual(['en ×', 'fr ×', 'de ×']);
    await langs.getByRole('button', { name: 'Remove de' }).click();
    await bsky.getByRole('group', { name: 'Content warnings' }).getByRole('checkbox', { name: 'Graphic media' }).check();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('status').filter({ hasText: 'Ready' }).waitFor();
    await page.getByRole('button', { name: 'Schedule' }).click();
    const made = page.getByRole('status').filter({ hasText: /Scheduled for/ });
    await made.waitFor();
    const id = /\((job_[0-9a-z]+)\)/.exec((await made.textContent()) ?? '')![1]!;
    const post = (await d.sdk.scheduled.get(id)).post;
    expect(post.platform_options).toEqual({
      twitter: { poll: { options: ['Tea', 'Coffee'], duration_minutes: 4320 } },
      bluesky: { langs: ['en', 'fr'], labels: ['graphic-media'] },
    });
    expect(w.csp).toEqual([]);
    await close();
    await d.sdk.scheduled.cancel(id);
  });
});

describe('Hold for approval', () => {
  it('is ticked and says why when the approval workflow holds every post, and free otherwise', async () => {
    const setWorkflow = (on: boolean) => {
      const admin = openAdmin(d.dataDir);
      try {
        admin.setApprovalWorkflow(d.key.email, on);
      } finally {
        admin.close();
      }
    };
    setWorkflow(true);
    try {
      const { page, close } = await compose();
      const hold = page.getByRole('checkbox', { name: 'Hold for approval' });
      await hold.waitFor();
      expect(await hold.isChecked()).toBe(true);
      expect(await hold.isDisabled()).toBe(true);
      await page.getByText('Every post waits for approval: your approval workflow is on').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await close();
    } finally {
      setWorkflow(false);
    }
    const { page, close } = await compose();
    const hold = page.getByRole('checkbox', { name: 'Hold for approval' });
    await hold.waitFor();
    expect(await hold.isChecked()).toBe(false);
    expect(await hold.isDisabled()).toBe(false);
    await close();
  });
});

describe('live connect without an app', () => {
  it('asks Bluesky for a handle and an app password and Mastodon for its server, never a client id, and sends them', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/connections`);
    const form = page.getByRole('form', { name: 'Real account' });
    await form.getByRole('textbox', { name: 'App client id' }).waitFor();
    await form.getByRole('combobox', { name: 'Platform' }).selectOption({ label: 'Bluesky' });
    await form.getByRole('textbox', { name: 'Handle' }).fill('alice.bsky.social');
    await form.getByLabel('App password').fill('abcd-efgh-ijkl-mnop');
    expect(await form.getByRole('textbox', { name: 'App client id' }).count()).toBe(0);
    await form.getByText('not your account password').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // What the page sends (the daemon's side, with the Bluesky simulator, is daemon/test/dashboard/appless-connect.test.ts).
    const sent: unknown[] = [];
    await page.route('**/api/agents/v1/connections/bluesky/authorize', async (route) => {
      sent.push(route.request().postDataJSON());
      await route.fulfill({
        json: { id: 'pcn_1', platform: 'bluesky', status: 'connected', authorize_url: null, redirect_uri: `${d.url}/connect/callback`, question: null, choices: null, connection: null, error: null, messages: [], expires_at: new Date(testNow().getTime() + 600_000).toISOString(), pending_id: 'pcn_1' },
      });
    });
    await form.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('status').filter({ hasText: 'Connected Bluesky.' }).waitFor();
    expect(sent).toEqual([{ handle: 'alice.bsky.social', app_password: 'abcd-efgh-ijkl-mnop' }]);

    await form.getByRole('combobox', { name: 'Platform' }).selectOption({ label: 'Mastodon' });
    await form.getByRole('textbox', { name: 'Server' }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Handle' }).count()).toBe(0);
    expect(await form.getByRole('textbox', { name: 'App client id' }).count()).toBe(0);
    expect(w.csp).toEqual([]);
    await context.close();
  });
});
