import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, newContext, screenshot, seriousViolations, watch } from './support/browser';
import { startDashboardDaemon, type DashboardDaemon } from './support/daemon';

/** Settings › Webhooks in Chromium: add an endpoint, test it, read its deliveries, redeliver one. */
let browser: Browser;
let d: DashboardDaemon;
let receiver: Server;
let hookUrl: string;
const received: { id: string; type: string }[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), type: (JSON.parse(body) as { type: string }).type });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  [browser, d] = await Promise.all([launchChromium(), startDashboardDaemon({ connect: ['twitter'], webhookAllowPrivate: true })]);
});
afterAll(async () => {
  await browser?.close();
  await d?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe('webhooks', () => {
  it('adds an endpoint (secret shown once), sends a test, lists its delivery and redelivers it', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const w = watch(page);
    await d.signIn(page);
    await page.goto(`${d.url}/settings`);
    await page.getByRole('tab', { name: 'Webhooks' }).click();
    await page.getByLabel('Webhook URL').fill(hookUrl);
    await page.getByLabel('Events').selectOption(['post.approved', 'target.published']);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^whsec_/);
    const [hook] = await d.sdk.webhooks.list();
    expect(hook).toMatchObject({ url: hookUrl, event_types: ['post.approved', 'target.published'] });

    await page.getByRole('button', { name: `Test ${hook!.id}` }).click();
    await page.getByRole('status').filter({ hasText: /Test delivery msg_\w+ queued/ }).waitFor();
    await expect.poll(() => received.map((r) => r.type)).toEqual(['webhook.test']);
    await page.getByRole('button', { name: `Deliveries of ${hook!.id}` }).click();
    const row = page.getByRole('row', { name: /webhook\.test/ });
    await expect.poll(async () => {
      await page.getByRole('button', { name: 'Refresh deliveries' }).click();
      return row.getByText('delivered').count();
    }).toBe(1);
    expect(await row.textContent()).toContain('204');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'settings-webhooks');

    const deliveryId = received[0]!.id;
    await row.getByRole('button', { name: `Redeliver ${deliveryId}` }).click();
    await page.getByRole('status').filter({ hasText: `Redelivering ${deliveryId}` }).waitFor();
    // Sent again with the same webhook-id, so a receiver can dedupe.
    await expect.poll(() => received.map((r) => r.id)).toEqual([deliveryId, deliveryId]);

    await page.getByRole('button', { name: `Delete ${hook!.id}` }).click();
    await page.getByRole('status').filter({ hasText: `Deleted webhook ${hook!.id}` }).waitFor();
    expect(await d.sdk.webhooks.list()).toEqual([]);
    expect(w.csp).toEqual([]);
    await context.close();
  });
});
