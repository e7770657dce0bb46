/**
 * Issue 28, item 1: a webhook whose name resolves to an address with no route crashed the
 * daemon (`connect ENETUNREACH … Emitted 'error' event on TLSSocket`), and every start
 * after, which resumed the delivery, crashed again before serving a request.
 *
 * The probe's names resolved to public addresses unreachable from its network namespace;
 * here the daemon's webhook resolver maps `*.probe.test` to the broadcast and a multicast
 * address, which fail to connect the same way (ENETUNREACH at connect) on any Linux host,
 * with webhook_allow_private on (the probe's second form: a hosts-file name).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin/index';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { useTempDirs } from '../support/temp-dirs';
import { API, healthz, startChildDaemon, whileProbingHealth, withinBudget, type ChildDaemon } from './probe';

const tempDir = useTempDirs();
const running: ChildDaemon[] = [];
afterEach(async () => {
  for (const d of running.splice(0)) await d.stop();
});

async function start(dataDir: string, address: string): Promise<ChildDaemon> {
  const d = await startChildDaemon(dataDir, { PROBE_ADDRESS: address, PROBE_ALLOW_PRIVATE: '1' });
  running.push(d);
  return d;
}

function client(url: string, key: string) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> => {
    const res = await fetch(`${url}${API}${path}`, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
}

interface Delivery {
  id: string;
  status: string;
  attempts: { error: string | null; status_code: number | null }[];
}

async function waitForAttempts(call: ReturnType<typeof client>, webhook: string, delivery: string, count: number): Promise<Delivery> {
  const until = Date.now() + 10_000;
  for (;;) {
    const r = await call('GET', `/webhooks/${webhook}/deliveries`);
    const d = (r.json.deliveries as Delivery[]).find((x) => x.id === delivery);
    if (d && d.attempts.length >= count) return d;
    if (Date.now() > until) throw new Error(`no attempt ${count} of ${delivery} recorded: ${JSON.stringify(r.json)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe('a webhook to an address with no route', () => {
  for (const [scheme, address] of [
    ['https', '255.255.255.255'],
    ['http', 'ff02::1'],
  ] as const) {
    it(`(${scheme}, ${address}) is a recorded failed attempt; the daemon stays up, answers /healthz within 100 ms, and a restart that resumes it serves requests`, async () => {
      const dir = tempDir('sp-unroutable-');
      const admin = openAdmin(dir);
      const key = admin.createKey({ email: 'probe@example.com' }).api_key;
      admin.close?.();

      let daemon = await start(dir, address);
      let call = client(daemon.url, key);
      const created = await call('POST', '/webhooks', { url: `${scheme}://pub.probe.test/b`, event_types: ['*'] });
      expect(created.status).toBe(201);
      const webhook = (created.json.webhook as { id: string }).id;

      // Each try queues a new test delivery and waits for its failed attempt (tries: see withinBudget).
      const probed = await withinBudget(100, () =>
        whileProbingHealth(daemon.url, async () => {
          const queued = await call('POST', `/webhooks/${webhook}/test`);
          expect(queued.status).toBe(202);
          return waitForAttempts(call, webhook, queued.json.delivery_id as string, 1);
        }),
        daemon.url,
      );
      expect(probed.result.attempts[0]?.error).toMatch(/ENETUNREACH/);
      expect(probed.result.attempts[0]?.status_code).toBeNull();
      expect(probed.result.status).toBe('pending'); // retried later, like any failed attempt
      expect(daemon.child.exitCode).toBeNull();
      expect(probed.samples).toBeGreaterThan(0);
      expect(probed.slowestMs).toBeLessThan(probed.allowedMs);
      expect((await healthz(daemon.url)).status).toBe(200);
      await daemon.stop();

      // What the last start left: the delivery due again now. The next start resumes it at once.
      const db = openDatabase(join(dir, 'socialpub.db'));
      const store = createStore(db, { secrets: SecretBox.fromKeyFile(join(dir, 'secret.key')), clock: systemClock });
      store.webhooks.redeliver(Number(probed.result.id.slice('msg_'.length)), Date.now());
      await store.commits.close();
      db.close();

      daemon = await start(dir, address);
      call = client(daemon.url, key);
      // The start resumes the delivery at once and serves requests all along.
      const resumed = await whileProbingHealth(daemon.url, () => waitForAttempts(call, webhook, probed.result.id, 2));
      expect(resumed.result.attempts.map((a) => a.error)).toEqual([expect.stringMatching(/ENETUNREACH/), expect.stringMatching(/ENETUNREACH/)]);
      expect(resumed.samples).toBeGreaterThan(0);
      expect(daemon.child.exitCode).toBeNull();
      // And within the budget once it runs: sent again (redeliver), the same failure, /healthz within 100 ms.
      const again = await withinBudget(100, () =>
        whileProbingHealth(daemon.url, async () => {
          const before = (await waitForAttempts(call, webhook, probed.result.id, 2)).attempts.length;
          expect((await call('POST', `/webhooks/${webhook}/deliveries/${probed.result.id}/redeliver`)).status).toBe(202);
          return waitForAttempts(call, webhook, probed.result.id, before + 1);
        }),
        daemon.url,
      );
      expect(again.result.attempts.at(-1)?.error).toMatch(/ENETUNREACH/);
      expect(again.slowestMs).toBeLessThan(again.allowedMs);
      expect(daemon.child.exitCode).toBeNull();
      // The endpoint can be deleted through the API (the probe had to edit SQLite).
      expect((await call('DELETE', `/webhooks/${webhook}`)).status).toBe(200);
      expect(daemon.stderr()).not.toMatch(/uncaught exception/);
    }, 60_000);
  }
});
