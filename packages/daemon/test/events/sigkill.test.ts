import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { resolveConfig } from '../../src/config';
import { createEvents } from '../../src/events/create-events';
import { newWebhookSecret } from '../../src/events/webhook-signing';
import { openDatabase } from '../../src/store/database';
import { createStore } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { silentLogger } from '../../src/util/logger';
import { SecretBox } from '../../src/util/secrets';
import { startReceiver } from './receiver';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const CHILD = fileURLToPath(new URL('./deliverer-child.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'socialpub-webhook-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('webhook delivery across SIGKILL', () => {
  it('a daemon killed with deliveries in flight and pending delivers them after restart, with the same webhook-ids', { timeout: 60_000 }, async () => {
    const dbPath = join(dir, 'socialpub.db');
    const config = resolveConfig({ dataDir: dir, webhookAllowPrivate: true }, {});
    const db = openDatabase(dbPath);
    const secrets = SecretBox.fromKeyFile(config.secretKeyPath);
    const store = createStore(db, { secrets, clock: systemClock });
    // The first process: the receiver takes its first request and never answers.
    let killed = false;
    const r = await startReceiver(() => (killed ? 200 : 'hang'));
    const secret = newWebhookSecret();
    const now = Date.now();
    store.users.ensure('u@example.com', now);
    const user = store.users.findByEmail('u@example.com')!;
    store.webhooks.create({ id: 'whk_kill', userId: user.id, url: r.url, description: '', eventTypes: ['*'], secretEnc: secrets.seal(secret) }, now);
    for (let i = 0; i < 5; i++) store.events.append({ userId: user.id, type: 'post.accepted', jobId: `job_${i}`, data: { job_id: `job_${i}` }, at: now });

    const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', CHILD, dbPath], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
      void exited.then(() => reject(new Error(`child exited: ${stderr}`)));
    });
    await r.waitFor(1); // in flight: sent, unanswered
    child.kill('SIGKILL');
    await exited;
    killed = true;
    const inFlightId = r.received[0]!.headers['webhook-id'];
    expect(store.webhooks.deliveries('whk_kill', 10).map((m) => m.status)).toEqual(['pending', 'pending', 'pending', 'pending', 'pending']);

    // Restart (in this process): everything pending goes out, the interrupted one again with its id.
    const events = createEvents({ store, secrets, clock: systemClock, logger: silentLogger, config });
    events.start();
    events.lead();
    try {
      await r.waitFor(6);
      await events.deliverer.settled();
      const after = r.received.slice(1);
      expect(after[0]?.headers['webhook-id']).toBe(inFlightId);
      expect(after.map((x) => (JSON.parse(x.body) as { data: { job_id: string } }).data.job_id)).toEqual(['job_0', 'job_1', 'job_2', 'job_3', 'job_4']);
      for (const x of after) expect(new Webhook(secret).verify(x.body, x.headers)).toMatchObject({ type: 'post.accepted' });
      expect(store.webhooks.deliveries('whk_kill', 10).map((m) => m.status)).toEqual(Array(5).fill('delivered'));
    } finally {
      await events.stop();
      await r.close();
      db.close();
    }
  });
});
