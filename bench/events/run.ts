/**
 * Events benchmark: how fast and how late events get from their commit to a loopback
 * webhook receiver and to an SSE client while 1,000 posts are publishing.
 *
 * The daemon runs in its own process (daemon.ts, the test adapter publishing with 50-150 ms
 * of latency, 64 targets in flight). This process is the receiver (answers 204 at once)
 * and the SSE client. 1,000 posts to twitter are scheduled for one instant; from then on
 * the publisher commits target.publishing, target.published and post.finished for each
 * (3,000 events). For each event: lateness = arrival here minus the event's timestamp (the
 * time the daemon wrote it, in the committing transaction). Aim: p99 < 100 ms.
 *
 * Baseline in the same run: the receiver's own round-trip floor — the deliverer's own
 * POST function (webhook-post.ts), one request at a time as the deliverer sends to an
 * endpoint that keeps up, with an event-sized body, no outbox (an endpoint that falls
 * behind gets up to 32 at once, so the deliverer can pass this floor). And two variants of the daemon: `notify`
 * (as shipped: an event this process commits wakes SSE streams and the deliverer at once)
 * and `poll` (before: only the hub's 20 ms poll of the newest event id wakes them).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openAdmin } from '../../packages/daemon/src/admin/index';
import { postWebhook } from '../../packages/daemon/src/events/webhook-post';

/** BENCH_EVENTS_POSTS overrides the number of posts (quicker runs while working). */
const POSTS = Number(process.env.BENCH_EVENTS_POSTS ?? 1_000);
const PROBE_POSTS = 40;
const SUBMITTERS = 8;
const FLOOR_REQUESTS = 2_000;
const TIMEOUT_MS = 120_000;
const PHASE_TYPES = new Set(['target.publishing', 'target.published', 'post.finished']);

const nowMs = () => performance.timeOrigin + performance.now();
const pct = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

interface Arrival {
  id: string;
  type: string;
  committedAt: number;
  at: number;
}

/** The loopback receiver: records each event's arrival, answers 204 at once. */
async function startReceiver() {
  const arrivals: Arrival[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = nowMs();
      res.writeHead(204).end();
      const e = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; type: string; timestamp: string };
      arrivals.push({ id: e.id, type: e.type, committedAt: Date.parse(e.timestamp), at });
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    port,
    arrivals,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** The round-trip floor: the deliverer's POST, one at a time, to the same receiver. */
async function measureFloor(port: number, body: string) {
  const url = new URL(`http://127.0.0.1:${port}/floor`);
  const address = { address: '127.0.0.1', family: 4 } as const;
  const rtts: number[] = [];
  const signal = new AbortController().signal;
  const headers = { 'webhook-id': 'msg_floor', 'webhook-timestamp': '0', 'webhook-signature': 'v1,floor' };
  const start = nowMs();
  for (let i = 0; i < FLOOR_REQUESTS; i++) {
    const t = nowMs();
    await postWebhook({ url, address, headers, body, signal });
    rtts.push(nowMs() - t);
  }
  const elapsed = nowMs() - start;
  rtts.sort((a, b) => a - b);
  return { perSecond: (FLOOR_REQUESTS / elapsed) * 1000, p50: pct(rtts, 0.5), p99: pct(rtts, 0.99) };
}

/** An SSE client of GET /events (fetch, frames parsed by hand): records each event's arrival. */
function startSse(base: string, key: string) {
  const arrivals: Arrival[] = [];
  const abort = new AbortController();
  const ready = (async () => {
    const res = await fetch(`${base}/api/agents/v1/events`, { headers: { authorization: `Bearer ${key}` }, signal: abort.signal });
    if (!res.ok || !res.body) throw new Error(`GET /events answered ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let resolveReady: () => void = () => {};
    const live = new Promise<void>((r) => (resolveReady = r));
    void (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          const at = nowMs();
          buffer += value;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const field = (name: string) => frame.split('\n').find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2);
            const type = field('event');
            if (type === 'live') resolveReady();
            const data = field('data');
            if (!type || !data || type === 'ready' || type === 'live' || type === 'gap') continue;
            const e = JSON.parse(data) as { id: string; timestamp: string };
            arrivals.push({ id: e.id, type, committedAt: Date.parse(e.timestamp), at });
          }
        }
      } catch {
        // aborted at the end
      }
    })();
    await live;
  })();
  return { arrivals, ready, close: () => abort.abort() };
}

async function startDaemonProcess(dataDir: string, variant: string): Promise<{ child: ChildProcess; url: string }> {
  const script = fileURLToPath(new URL('./daemon.ts', import.meta.url));
  const child = spawn(process.execPath, ['--conditions=@socialpub/source', '--import', 'tsx', script, dataDir, variant], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the daemon exited (${code}) before it was ready`)));
  });
  return { child, url: (JSON.parse(line) as { url: string }).url };
}

interface Figures {
  events: number;
  producedPerSecond: number;
  deliveredPerSecond: number;
  p50: number;
  p99: number;
  max: number;
}

function figures(arrivals: Arrival[]): Figures {
  const phase = arrivals.filter((a) => PHASE_TYPES.has(a.type));
  const late = phase.map((a) => a.at - a.committedAt).sort((a, b) => a - b);
  const firstCommit = Math.min(...phase.map((a) => a.committedAt));
  const lastCommit = Math.max(...phase.map((a) => a.committedAt));
  const lastArrival = Math.max(...phase.map((a) => a.at));
  return {
    events: phase.length,
    producedPerSecond: (phase.length / Math.max(1, lastCommit - firstCommit)) * 1000,
    deliveredPerSecond: (phase.length / Math.max(1, lastArrival - firstCommit)) * 1000,
    p50: pct(late, 0.5),
    p99: pct(late, 0.99),
    max: late[late.length - 1] ?? Number.NaN,
  };
}

async function runVariant(variant: 'notify' | 'poll', receiver: Awaited<ReturnType<typeof startReceiver>>) {
  const dir = mkdtempSync(join(tmpdir(), `socialpub-bench-events-${variant}-`));
  const admin = openAdmin(dir);
  const { api_key: key, email } = admin.createKey({ email: 'bench@example.com' });
  admin.addSandboxConnection('twitter', { email });
  admin.close();
  const { child, url } = await startDaemonProcess(dir, variant);
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}/api/agents/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<unknown>;
  };
  receiver.arrivals.length = 0;
  const sse = startSse(url, key);
  try {
    await api('POST', '/webhooks', { url: receiver.url, event_types: ['*'], description: 'bench' });
    await sse.ready;
    const submitAll = async (count: number, due: number) => {
      let next = 0;
      const submit = async () => {
        while (next < count) {
          const n = next++;
          await api('POST', '/content/publish', { caption: `bench events post ${n} ${due}`, platforms: ['twitter'], scheduled_for: new Date(due).toISOString() });
        }
      };
      await Promise.all(Array.from({ length: SUBMITTERS }, submit));
    };
    // A probe (due tomorrow, never published in this run) sizes the lead: every post must be
    // accepted before the shared due instant, whatever the machine's load.
    const probeStart = Date.now();
    await submitAll(PROBE_POSTS, Date.now() + 86_400_000);
    const perPost = (Date.now() - probeStart) / PROBE_POSTS;
    const lead = Math.ceil(POSTS * perPost * 1.5 + 2_000);
    const due = Math.ceil((Date.now() + lead) / 1000) * 1000;
    await submitAll(POSTS, due);
    if (Date.now() >= due) throw new Error(`scheduling ${POSTS} posts took longer than the ${lead} ms lead`);
    console.log(`${variant.padEnd(6)}  ${POSTS} posts accepted (${perPost.toFixed(1)} ms each); publishing at ${new Date(due).toISOString()}`);
    const done = (list: Arrival[]) => list.filter((a) => a.type === 'post.finished').length >= POSTS;
    const deadline = due + TIMEOUT_MS;
    while (!(done(receiver.arrivals) && done(sse.arrivals))) {
      if (Date.now() > deadline) {
        // Report what arrived (a consumer that fell behind shows in its count and rate).
        console.log(`${variant.padEnd(6)}  INCOMPLETE after ${TIMEOUT_MS / 1000} s: receiver ${receiver.arrivals.length}, SSE ${sse.arrivals.length} events (with the ${POSTS + PROBE_POSTS} post.accepted)`);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const webhook = figures(receiver.arrivals);
    const stream = figures(sse.arrivals);
    const duplicates = receiver.arrivals.length - new Set(receiver.arrivals.map((a) => a.id)).size;
    return { webhook, stream, duplicates };
  } finally {
    sse.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(`machine: ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
const receiver = await startReceiver();
try {
  const sampleBody = JSON.stringify({
    id: 'evt_12345',
    type: 'target.published',
    version: 1,
    timestamp: new Date().toISOString(),
    job_id: 'job_01JBENCHBENCHBENCHBENCHBENCH',
    data: { target_id: 'tgt_01JBENCHBENCHBENCHBENCHBENCH', platform: 'twitter', type: 'tweet', post_id: '1234567890', post_url: 'https://x.com/i/status/1234567890' },
  });
  const floor = await measureFloor(receiver.port, sampleBody);
  console.log(`baseline  receiver round trip (deliverer's POST, one at a time): ${floor.perSecond.toFixed(0)} req/s, p50 ${ms(floor.p50)}, p99 ${ms(floor.p99)}`);
  const results: Record<string, Awaited<ReturnType<typeof runVariant>>> = {};
  for (const variant of ['notify', 'poll'] as const) {
    const r = await runVariant(variant, receiver);
    results[variant] = r;
    for (const [name, f] of [['webhook', r.webhook], ['SSE    ', r.stream]] as const) {
      console.log(
        `${variant.padEnd(6)}  ${name}: ${f.events} events, committed at ${f.producedPerSecond.toFixed(0)}/s, delivered at ${f.deliveredPerSecond.toFixed(0)}/s; lateness p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${ms(f.max)}`,
      );
    }
    if (r.duplicates) console.log(`${variant.padEnd(6)}  webhook: ${r.duplicates} events delivered more than once`);
  }
  const n = results.notify;
  const p = results.poll;
  if (n && p) {
    console.log(
      `ratios  webhook events/s / receiver round trips/s (one at a time while the endpoint keeps up, up to 32 at once when it falls behind): ${(n.webhook.deliveredPerSecond / floor.perSecond).toFixed(2)} (poll: ${(p.webhook.deliveredPerSecond / floor.perSecond).toFixed(2)})`,
    );
    console.log(`        notify / poll p99 lateness: webhook ${(n.webhook.p99 / p.webhook.p99).toFixed(2)}, SSE ${(n.stream.p99 / p.stream.p99).toFixed(2)}`);
    const ok = n.webhook.p99 < 100 && n.stream.p99 < 100;
    console.log(`aim     p99 < 100 ms (notify): ${ok ? 'met' : 'NOT met'} (webhook ${ms(n.webhook.p99)}, SSE ${ms(n.stream.p99)})`);
  }
} finally {
  await receiver.close();
}
