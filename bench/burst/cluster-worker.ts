/**
 * One daemon's publishing half for `pnpm bench burst --database postgres` (cluster.ts): the
 * real scheduler and publisher (createPublishing, as the daemon wires them) over the
 * PostgreSQL database argv[3], publishing through the test adapter at 200-400 ms a call
 * into the shared ledger file argv[4]. Several run at once over one database.
 *
 *   seed <url> <users> <perConnection>   stores the burst (targets due at one round second); prints {due, targets}
 *   work <url> <ledger> <targets> <daemons>   publishes until every target of the database is settled; prints its figures
 *
 * Each worker keeps a heartbeat row (cluster/presence.ts) as the daemon does, so it takes
 * its share of the due targets first (publisher/share.ts); it waits until all <daemons>
 * are listed, as daemons running for a while before a burst would be.
 *
 * The connections carry sealed tokens and the publisher opens them through the store's
 * credentials service (store/credentials.ts), as the daemon does: its reads of a target's
 * credentials are part of the figures.
 */
import type { Platform } from '../../packages/core/src/platforms';
import { FileLedger, createTestAdapters } from '../../packages/daemon/test/support/test-adapter';
import { startPresence } from '../../packages/daemon/src/cluster/presence';
import { createPublishing } from '../../packages/daemon/src/publisher/create-publishing';
import { newLeaseOwner } from '../../packages/daemon/src/publisher/lease-owner';
import { createDaemonsRepository } from '../../packages/daemon/src/store/daemons';
import { createCommits } from '../../packages/daemon/src/store/commits';
import { createCredentialsService } from '../../packages/daemon/src/store/credentials';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { createTargetQueue } from '../../packages/daemon/src/store/target-queue';
import { systemClock } from '../../packages/daemon/src/util/clock';
import { SecretBox } from '../../packages/daemon/src/util/secrets';

const [mode, url, a = '', b = '', c = '1'] = process.argv.slice(2);
if (!url || (mode !== 'seed' && mode !== 'work')) throw new Error('usage: cluster-worker.ts seed <url> <users> <per> | work <url> <ledger> <targets>');
const PLATFORMS: Platform[] = ['twitter', 'threads', 'facebook'];
const LATENCY: [number, number] = [200, 400];
const LEAD_MS = 4_000;
const db = openDatabase(url);
// One key for the seed and every worker (as the daemons of one data dir share its key file).
const box = new SecretBox(Buffer.alloc(32, 7));

if (mode === 'seed') {
  const users = Number(a);
  const per = Number(b);
  const now0 = Date.now();
  const due = Math.ceil((now0 + LEAD_MS) / 1000) * 1000;
  let targets = 0;
  db.transaction(() => {
    const user = db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)');
    const conn = db.prepare(
      "INSERT INTO connections (id, user_id, platform, mode, status, account_id, account_name, secrets_enc, created_at, updated_at) VALUES (?, ?, ?, 'sandbox', 'active', ?, ?, ?, ?, ?)",
    );
    const job = db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?)");
    const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, 'scheduled', ?)");
    for (let u = 0; u < users; u++) {
      const userId = `user_${String(u).padStart(5, '0')}`;
      user.run(userId, `${userId}@bench.test`, now0);
      for (const p of PLATFORMS) conn.run(`con_${userId}_${p}`, userId, p, userId, userId, box.sealJson({ access_token: `token-${userId}-${p}` }), now0, now0);
      for (let n = 0; n < per; n++) {
        const jobId = `job_${userId}_${n}`;
        job.run(jobId, userId, `post ${n} of ${userId}`, JSON.stringify(PLATFORMS), due, due, now0, now0);
        for (const p of PLATFORMS) {
          target.run(`tgt_${userId}_${n}_${p}`, jobId, userId, p, due, now0);
          targets++;
        }
      }
    }
  })();
  db.close();
  process.stdout.write(`${JSON.stringify({ due, targets })}\n`);
  process.exit(0);
}

const ledger = new FileLedger(a);
const queue = createTargetQueue(db);
// Claims asked for and got: what the others took first (SKIP LOCKED, or already claimed) is the difference.
let asked = 0;
let got = 0;
const claimMany = queue.claimMany.bind(queue);
queue.claimMany = (ids, ...rest) => {
  const out = claimMany(ids, ...rest);
  asked += ids.length;
  got += out.filter((c) => c !== null).length;
  return out;
};
const daemons = Number(c);
const presence = startPresence({ daemons: createDaemonsRepository(db), leadership: { leader: false, whenLeader: () => {}, stop: () => {} }, clock: systemClock, id: newLeaseOwner(), version: 'bench', url: () => null, heartbeatMs: 250 });
while (daemons > 1 && presence.share()?.of !== daemons) await new Promise((r) => setTimeout(r, 50));
const publishing = createPublishing({
  queue,
  commits: createCommits(db),
  clock: systemClock,
  adapters: createTestAdapters(ledger, { latencyMs: LATENCY }),
  connections: createCredentialsService(db, box, systemClock),
  media: { resolve: async () => [] },
  // A dead owner on this host is seen at the next lease sweep (every second here).
  publisher: { sweepMs: 1_000, share: () => presence.share() },
  scheduler: { sweepMs: 1_000 },
});
let published = 0;
publishing.publisher.onSettled((s) => {
  if (s.result === 'published') published++;
});
const unsettled = db.prepare("SELECT count(*) FROM targets WHERE status IN ('scheduled', 'publishing')").pluck();
const cpu0 = process.cpuUsage();
await publishing.start();
process.stdout.write('started\n');
const deadline = Date.now() + 300_000;
while ((unsettled.get() as number) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
const cpu = process.cpuUsage(cpu0);
await publishing.stop(1_000);
presence.stop();
process.stdout.write(`${JSON.stringify({ pid: process.pid, published, asked, got, cpuUs: cpu.user + cpu.system })}\n`);
// The connection stays open a moment, so the bench reads its server process's CPU before it ends.
await new Promise((r) => setTimeout(r, 2_000));
db.close();
process.exit(0);
