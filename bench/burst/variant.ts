/**
 * One run of bench/burst in its own process: a fresh SQLite file with N users, each
 * connected to twitter, threads and facebook with `perConnection` posts due on each, all
 * due at the same instant; the real scheduler and publisher (createPublishing, as the
 * daemon wires them) publish them through the test adapter with 200-400 ms of latency.
 * Prints one JSON line: lateness (published_at minus due_at) percentiles, counts, the
 * process's CPU time per target from start until every target settled, and lateness in CPU
 * time (`cpuLateP50`/`cpuLateP99`: the process's CPU used from the due instant until each
 * target was published, in µs), which a loaded machine does not stretch.
 *
 * `collecting` is `ours` with the analytics collector running beside the publisher (issue
 * 36): every connection also has a post published an hour before the burst, so its first
 * reading falls due at the burst's instant; readers answer after 200-400 ms like the
 * platforms. Collection must yield (the publisher's connectionBusy, a publish due within
 * two minutes): the burst's lateness is ours's, and the readings come after. It reports
 * `readsAheadOfOwnPublish`: reader calls started on a connection before that connection's
 * last burst publish — an order of events the machine's load cannot move (it must be 0).
 *
 * argv: variant (ours | today | collecting) users postsPerConnection dir
 */
import type { Platform } from '../../packages/core/src/platforms';
import type { PublisherOptions } from '../../packages/daemon/src/publisher/options';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createCollector } from '../../packages/daemon/src/analytics/collector';
import type { PostAnalytics } from '../../packages/daemon/src/platforms/post-analytics';
import { createStore } from '../../packages/daemon/src/store/store';
import { silentLogger } from '../../packages/daemon/src/util/logger';
import { SecretBox } from '../../packages/daemon/src/util/secrets';
import { createTestAdapters, MemoryLedger, sandboxCredentials } from '../../packages/daemon/test/support/test-adapter';
import { createPublishing } from '../../packages/daemon/src/publisher/create-publishing';
import { startCheckpointer } from '../../packages/daemon/src/store/checkpointer';
import { createCommits } from '../../packages/daemon/src/store/commits';
import { openDatabase } from '../../packages/daemon/src/store/database';
import { createTargetQueue } from '../../packages/daemon/src/store/target-queue';
import { systemClock } from '../../packages/daemon/src/util/clock';

const [variant = 'ours', usersArg = '50', perArg = '2', dir = '.'] = process.argv.slice(2);
const USERS = Number(usersArg);
const PER_CONNECTION = Number(perArg);
const PLATFORMS: Platform[] = ['twitter', 'threads', 'facebook'];
const LATENCY: [number, number] = [200, 400];
const LEAD_MS = 1_500;
const TIMEOUT_MS = 300_000;

/** `today` models the publisher before per-connection scheduling: one queue per platform with 4 in flight. */
const variants: Record<string, Partial<PublisherOptions>> = {
  ours: {},
  today: { concurrency: 4, connectionConcurrency: 4 },
  collecting: {},
};
const collecting = variant === 'collecting';
const chosen = variants[variant];
if (!chosen) throw new Error(`unknown variant ${variant}`);
const publisherOptions = chosen;

const db = openDatabase(join(dir, `${variant}-${USERS}.db`));
const now0 = Date.now();
const due = Math.ceil((now0 + LEAD_MS) / 1000) * 1000;
const ids: string[] = [];
db.transaction(() => {
  const user = db.prepare('INSERT INTO users (id, email, created_at) VALUES (?, ?, ?)');
  const conn = db.prepare("INSERT INTO connections (id, user_id, platform, mode, status, created_at, updated_at) VALUES (?, ?, ?, 'sandbox', 'active', ?, ?)");
  const job = db.prepare(
    "INSERT INTO jobs (id, user_id, caption, platforms, media_urls, scheduled_for, sort_at, created_at, updated_at) VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?)",
  );
  const target = db.prepare("INSERT INTO targets (id, job_id, user_id, platform, type, due_at, status, updated_at) VALUES (?, ?, ?, ?, 'feed', ?, 'scheduled', ?)");
  const published = db.prepare("UPDATE targets SET status = 'published', post_id = ?, published_at = ? WHERE id = ?");
  for (let u = 0; u < USERS; u++) {
    const userId = `user_${String(u).padStart(5, '0')}`;
    user.run(userId, `${userId}@bench.test`, now0);
    for (const p of PLATFORMS) conn.run(`con_${userId}_${p}`, userId, p, now0, now0);
    if (collecting) {
      // A post published an hour before the burst on each connection: its 1 h reading is due at the burst's instant.
      const jobId = `job_${userId}_earlier`;
      job.run(jobId, userId, `earlier post of ${userId}`, JSON.stringify(PLATFORMS), due - 3_600_000, due - 3_600_000, now0, now0);
      for (const p of PLATFORMS) {
        target.run(`tgt_${userId}_earlier_${p}`, jobId, userId, p, due - 3_600_000, now0);
        published.run(`post_${userId}_${p}`, due - 3_600_000, `tgt_${userId}_earlier_${p}`);
      }
    }
    for (let n = 0; n < PER_CONNECTION; n++) {
      const jobId = `job_${userId}_${n}`;
      job.run(jobId, userId, `post ${n} of ${userId}`, JSON.stringify(PLATFORMS), due, due, now0, now0);
      for (const p of PLATFORMS) {
        const id = `tgt_${userId}_${n}_${p}`;
        target.run(id, jobId, userId, p, due, now0);
        ids.push(id);
      }
    }
  }
})();

const credentials = (userId: string, platform: Platform) => sandboxCredentials(userId, platform, userId);

// As the daemon does: WAL checkpoints on a thread of their own, not inside a commit on the event loop.
const checkpointer = startCheckpointer(db);
const ledger = new MemoryLedger();
const publishing = createPublishing({
  queue: createTargetQueue(db),
  // As the daemon: the batches' fsync through the group commit, off the event loop.
  commits: createCommits(db),
  clock: systemClock,
  adapters: createTestAdapters(ledger, { latencyMs: LATENCY }),
  connections: { credentialsFor: credentials, saveTokens: () => {}, markExpired: () => {} },
  media: { resolve: async () => [] },
  publisher: publisherOptions,
});

// The collector as the daemon wires it (compose.ts, daemon.ts), its readers as slow as the platforms; it looks every 200 ms.
// Each reader call: when it started (the call reaching the network) and on which connection.
const readings: number[] = [];
const readingStarts: Array<{ at: number; connectionId: string }> = [];
const slowReader: PostAnalytics = {
  batchSize: 100,
  budget: { calls: 1_000_000, windowMs: 60_000 },
  refusal: () => null,
  async read(ctx, postIds) {
    readingStarts.push({ at: Date.now(), connectionId: ctx.credentials.connectionId });
    await new Promise((r) => setTimeout(r, LATENCY[0] + Math.random() * (LATENCY[1] - LATENCY[0])));
    readings.push(Date.now());
    return new Map(postIds.map((id) => [id, { metrics: { likes: 1 }, platformMetrics: { like_count: 1 } }]));
  },
};
const store = collecting ? createStore(db, { secrets: new SecretBox(randomBytes(32)), clock: systemClock }) : null;
const collector = store
  ? createCollector({
      store,
      clock: systemClock,
      logger: silentLogger,
      readers: new Map(PLATFORMS.map((p) => [p, slowReader])),
      calls: { credentials: store.credentials, clock: systemClock, logger: silentLogger, sandboxBaseUrl: null },
      publishingBusy: (userId, platform, connectionId) => publishing.publisher.connectionBusy(userId, platform, connectionId),
      publishingBacklog: () => publishing.publisher.busy,
      tickMs: 200,
      yieldMs: 500,
    })
  : null;

let settled = 0;
// Lateness in CPU time: the process's CPU used from the due instant until each burst target was published. Wall-clock
// lateness stretches while the process waits for a core on a loaded machine; the CPU spent before a publish does not,
// and any work the collector did ahead of a publish would add to it.
let cpuAtDue: NodeJS.CpuUsage | null = null;
setTimeout(() => (cpuAtDue = process.cpuUsage()), Math.max(0, due - Date.now())).unref();
const cpuLate: number[] = [];
const finished = new Promise<void>((resolve) => {
  publishing.publisher.onSettled((s) => {
    if (s.result === 'published' && cpuAtDue) {
      const c = process.cpuUsage(cpuAtDue);
      cpuLate.push(c.user + c.system);
    }
    if (s.result === 'published' || s.result === 'failed' || s.result === 'needs_review') settled++;
    if (settled >= ids.length) resolve();
  });
});
// CPU of the whole process (event loop, SQLite, the checkpoint thread) from start until every target settled.
const cpu0 = process.cpuUsage();
await publishing.start();
collector?.start();
const timeout = new Promise<void>((resolve) => setTimeout(resolve, TIMEOUT_MS).unref());
await Promise.race([finished, timeout]);
const cpu = process.cpuUsage(cpu0);
const lastPublished = Date.now();
// Let the collector read what yielded to the burst (a few looks), then stop it.
if (collector) await new Promise((r) => setTimeout(r, 2_000));
await collector?.stop();
await publishing.stop(1_000);
await checkpointer.stop();

// The burst's targets (not the earlier posts the collecting variant reads).
const rows = db.prepare("SELECT status, due_at, published_at FROM targets WHERE status = 'published' AND job_id NOT LIKE '%earlier'").all() as {
  due_at: number;
  published_at: number;
}[];
const late = rows.map((r) => r.published_at - r.due_at).sort((a, b) => a - b);
const pct = (q: number) => late[Math.min(late.length - 1, Math.ceil(q * late.length) - 1)] ?? Number.NaN;
const posts = new Map<string, number>();
for (const e of ledger.entries()) posts.set(e.targetId, (posts.get(e.targetId) ?? 0) + 1);
const doubled = [...posts.values()].filter((n) => n > 1).length;
const claimLate = (db.prepare('SELECT t.due_at, min(a.started_at) AS s FROM targets t JOIN attempts a ON a.target_id = t.id GROUP BY t.id').all() as { due_at: number; s: number }[])
  .map((r) => r.s - r.due_at)
  .sort((a, b) => a - b);
const claimAt = (q: number) => claimLate[Math.min(claimLate.length - 1, Math.ceil(q * claimLate.length) - 1)] ?? Number.NaN;
const other = db.prepare("SELECT count(*) FROM targets WHERE status <> 'published'").pluck().get() as number;
cpuLate.sort((a, b) => a - b);
const cpuPct = (q: number) => cpuLate[Math.min(cpuLate.length - 1, Math.ceil(q * cpuLate.length) - 1)] ?? Number.NaN;
const readTargets = collecting ? (db.prepare('SELECT count(DISTINCT target_id) FROM post_metrics').pluck().get() as number) : 0;
// Whether a reading ever went ahead of a publish on its own connection: a reader call started on a connection before
// the last of that connection's burst targets was published. An order of events, not a duration: the machine's load
// cannot move it (lateness can).
const lastOwnPublish = new Map(
  (db.prepare("SELECT user_id, platform, max(published_at) AS at FROM targets WHERE status = 'published' AND job_id NOT LIKE '%earlier' GROUP BY user_id, platform").all() as Array<{ user_id: string; platform: string; at: number }>).map(
    (r) => [`con_${r.user_id}_${r.platform}`, r.at],
  ),
);
const readsAheadOfOwnPublish = readingStarts.filter((r) => r.at < (lastOwnPublish.get(r.connectionId) ?? Number.POSITIVE_INFINITY)).length;
db.close();
process.stdout.write(
  `${JSON.stringify({ variant, targets: ids.length, published: rows.length, doubled, lost: other, p50: pct(0.5), p99: pct(0.99), max: late[late.length - 1] ?? Number.NaN, claimP50: claimAt(0.5), claimP99: claimAt(0.99), cpuUsPerTarget: Math.round((cpu.user + cpu.system) / ids.length), cpuLateP50: cpuPct(0.5), cpuLateP99: cpuPct(0.99), ...(collecting ? { readTargets, readingCalls: readings.length, readingCallsBeforeLastPublish: readings.filter((t) => t < lastPublished).length, readsAheadOfOwnPublish } : {}) })}\n`,
);
