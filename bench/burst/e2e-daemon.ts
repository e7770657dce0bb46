/**
 * The daemon of bench/burst's end-to-end mode, in its own process so its CPU time is its
 * own (the bench client's HTTP work is not in it) and a profile holds only the daemon:
 * startDaemon over the data dir argv[2] as shipped — real adapters, the platform
 * simulators under /sandbox/, on 127.0.0.1 port 0, rate limits off (the bench is one
 * machine's many users, not one user's quota). The sandbox latency comes from
 * SOCIALPUB_SANDBOX_LATENCY_MS in the environment (the bench sets 200-400) where this
 * daemon knows the setting. Prints one JSON line `{"url", "pid"}` once listening.
 *
 * stdin, one command a line: `profile-start` starts the V8 CPU profiler in this thread,
 * `profile-stop <path>` writes the profile (.cpuprofile JSON) there and answers
 * `{"profile": path}`. SIGTERM closes the daemon and exits.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { resolveConfig } from '../../packages/daemon/src/config';
import { startDaemon } from '../../packages/daemon/src/daemon';
import { silentLogger } from '../../packages/daemon/src/util/logger';

const [dataDir] = process.argv.slice(2);
if (!dataDir) throw new Error('usage: e2e-daemon.ts <data dir>');

const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0, rateLimitsEnabled: false }, process.env);
const daemon = await startDaemon(config, { logger: silentLogger });
process.stdout.write(`${JSON.stringify({ url: daemon.url, pid: process.pid })}\n`);

const session = new Session();
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, path] = line.trim().split(' ');
  void (async () => {
    if (command === 'profile-start') {
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 500 });
      await session.post('Profiler.start');
      process.stdout.write(`${JSON.stringify({ profiling: true })}\n`);
    } else if (command === 'profile-stop' && path) {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(path, JSON.stringify(profile));
      session.disconnect();
      process.stdout.write(`${JSON.stringify({ profile: path })}\n`);
    }
  })();
});

process.on('SIGTERM', () => {
  void daemon.close().then(() => process.exit(0));
});
