/**
 * bench/burst's transport floor (issue 29): the same burst's HTTP exchanges with nothing of
 * the product around them — what this machine's cores give before socialpub does anything.
 *
 * Two processes, as end to end: a client (undici's `request` through one Agent, as the
 * adapters call platforms: platforms/shared/platform-request.ts) and a server process with
 * one bare `node:http` server per simulated host (api.x.com, graph.threads.net,
 * graph.facebook.com), each answering a form POST with a small JSON body after a uniform
 * 200-400 ms. Every target is due in the same instant; at it, each makes one call, as the
 * daemon does: X's post, Facebook's feed post, and for Threads `threads_publish` of a
 * container made before the due time (the publisher's preparer makes it a minute ahead; here
 * just before the measured span, so its CPU is not counted, as the daemon's is not). Lateness
 * is the answer's arrival minus the due time. No SQLite, no
 * scheduler, no adapter logic, no framework: the difference between this and the
 * end-to-end run is what the product costs.
 *
 * Run by run.ts (`e2e-transport`); alone: `node --import tsx bench/burst/transport-floor.ts <targets>`.
 */
import { fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';
import { pct } from './percentile';

export interface TransportFloorResult {
  variant: 'e2e-transport';
  targets: number;
  published: number;
  doubled: 0;
  lost: number;
  p50: number;
  p99: number;
  max: number;
  /** The client's CPU per target (µs), from just before due to the last answer. */
  cpuUsPerTarget: number;
  /** The servers' process's CPU per target (µs), over the same span. */
  serverCpuUsPerTarget: number;
}

const HOSTS = 3;
const self = fileURLToPath(import.meta.url);

/** The servers' side: one bare server per host; answers after 200-400 ms. */
async function serve(): Promise<void> {
  let next = 0;
  const servers: Server[] = [];
  for (let h = 0; h < HOSTS; h++) {
    const server = createServer((req, res) => {
      let size = 0;
      req.on('data', (c: Buffer) => (size += c.length));
      req.on('end', () => {
        setTimeout(() => {
          const body = JSON.stringify({ id: String(++next), received: size });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        }, 200 + Math.random() * 200);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', 2048, resolve));
    servers.push(server);
  }
  process.send?.({ ports: servers.map((s) => (s.address() as { port: number }).port) });
  process.on('message', (m) => {
    if (m === 'cpu') {
      const u = process.cpuUsage();
      process.send?.({ cpu: u.user + u.system });
    }
    if (m === 'exit') process.exit(0);
  });
  // The client gone (ended, killed or crashed) takes its servers with it.
  process.on('disconnect', () => process.exit(0));
}

/** The client's side, in a process of its own so its V8 starts as cold as the daemon's. */
async function burst(targets: number, ports: number[], serverCpu: () => Promise<number>): Promise<TransportFloorResult> {
  const agent = new Agent({ keepAliveTimeout: 10_000 });
  const origins = ports.map((p) => `http://127.0.0.1:${p}`);
  const call = async (origin: string, path: string, text: string) => {
    const body = new URLSearchParams({ text, access_token: 'sandbox-token-0123456789abcdef' }).toString();
    const r = await request(`${origin}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded' }, dispatcher: agent });
    if (r.statusCode !== 200) throw new Error(`HTTP ${r.statusCode}`);
    return (await r.body.json()) as { id: string };
  };
  // The Threads containers, made ahead (64 at a time, as the preparer does).
  const containers = new Map<number, string>();
  const threads = Array.from({ length: targets }, (_, i) => i).filter((i) => i % HOSTS === 1);
  for (let k = 0; k < threads.length; k += 64) {
    await Promise.all(threads.slice(k, k + 64).map(async (i) => containers.set(i, (await call(origins[1] as string, '/v1.0/me/threads', `burst post ${i}`)).id)));
  }
  const dueAt = performance.now() + 500;
  await new Promise((resolve) => setTimeout(resolve, 400));
  const cpu0 = process.cpuUsage();
  const server0 = await serverCpu();
  while (performance.now() < dueAt) await new Promise((resolve) => setImmediate(resolve));
  let lost = 0;
  const late: number[] = [];
  await Promise.all(
    Array.from({ length: targets }, async (_, i) => {
      const text = `burst post ${i}`;
      try {
        if (i % HOSTS === 1) {
          await call(origins[1] as string, `/v1.0/me/threads_publish?creation_id=${containers.get(i)}`, '');
        } else {
          await call(origins[i % HOSTS] as string, i % HOSTS === 0 ? '/2/tweets' : '/v23.0/me/feed', text);
        }
        late.push(performance.now() - dueAt);
      } catch {
        lost += 1;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  const server = (await serverCpu()) - server0;
  await agent.close();
  late.sort((a, b) => a - b);
  return {
    variant: 'e2e-transport',
    targets,
    published: late.length,
    doubled: 0,
    lost,
    p50: Math.round(pct(late, 0.5)),
    p99: Math.round(pct(late, 0.99)),
    max: Math.round(late[late.length - 1] ?? Number.NaN),
    cpuUsPerTarget: Math.round((cpu.user + cpu.system) / targets),
    serverCpuUsPerTarget: Math.round(server / targets),
  };
}

/** Runs the floor in two fresh processes (client, servers) and returns its figures. */
export async function runTransportFloor(targets: number): Promise<TransportFloorResult> {
  const client = fork(self, ['client', String(targets)], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
  try {
    return await new Promise<TransportFloorResult>((resolve, reject) => {
      client.once('message', (m) => resolve(m as TransportFloorResult));
      client.once('exit', (code) => reject(new Error(`transport floor client exited with ${code}`)));
    });
  } finally {
    // The client stops its servers and exits by itself once it has answered; a stuck one is killed.
    client.disconnect();
    const timer = setTimeout(() => client.kill(), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

async function clientMain(targets: number): Promise<void> {
  const server = fork(self, ['serve'], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const { ports } = await new Promise<{ ports: number[] }>((resolve) => server.once('message', (m) => resolve(m as { ports: number[] })));
    const serverCpu = () =>
      new Promise<number>((resolve) => {
        server.once('message', (m) => resolve((m as { cpu: number }).cpu));
        server.send('cpu');
      });
    const result = await burst(targets, ports, serverCpu);
    if (process.send) process.send(result);
    else console.log(JSON.stringify(result));
  } finally {
    server.send('exit');
  }
}

if (process.argv[1] === self) {
  const [mode, n] = process.argv.slice(2);
  if (mode === 'serve') await serve();
  else await clientMain(Number(mode === 'client' ? n : (mode ?? 3000)));
}
