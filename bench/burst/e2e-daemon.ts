/**
 * The daemon of bench/burst's end-to-end mode, in its own process so its CPU time is its
 * own (the bench client's HTTP work is not in it) and a profile holds only the daemon:
 * startDaemon over the data dir argv[2] as `socialpub daemon run` starts it — real
 * adapters, the platform simulators in a process of their own (`socialpub sandbox serve`,
 * StartOptions.sandboxProcess: the built CLI `packages/cli/dist/cli.js` with this node,
 * else the CLI's sources through tsx), on 127.0.0.1 port 0, rate limits off (the bench is
 * one machine's many users, not one user's quota). argv[3] `in-process` serves the
 * simulators from the daemon's own event loop instead (the setup before issue 29 item 2,
 * for comparison). The sandbox latency comes from SOCIALPUB_SANDBOX_LATENCY_MS in the
 * environment (the bench sets 200-400), which the daemon resolves and hands to its
 * simulators' process. Prints one JSON line `{"url", "pid", "sandbox": {"mode", "pid"}}`
 * once listening.
 *
 * stdin, one command a line: `profile-start` starts the V8 CPU profiler in this thread,
 * `profile-stop <path>` writes the profile (.cpuprofile JSON) there and answers
 * `{"profile": path}`; `sandbox` answers `{"sandbox": {"mode", "pid", "restarts"}}`.
 * SIGTERM closes the daemon (and with it the simulators' process) and exits.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { dirname } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { resolveConfig } from '../../packages/daemon/src/config';
import { startDaemon } from '../../packages/daemon/src/daemon';
import type { SelfCommand } from '../../packages/daemon/src/platforms/sandbox/sandbox-process';
import { silentLogger } from '../../packages/daemon/src/util/logger';

const [dataDir, mode = 'process'] = process.argv.slice(2);
if (!dataDir || (mode !== 'process' && mode !== 'in-process')) throw new Error('usage: e2e-daemon.ts <data dir> [process|in-process]');

/** `socialpub` itself, as the CLI's selfCommand() finds it: the bundle (`./scripts/setup` builds it), else the sources. */
function cliCommand(): SelfCommand {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const bundled = fileURLToPath(new URL('../../packages/cli/dist/cli.js', import.meta.url));
  if (existsSync(bundled)) return { file: process.execPath, args: [bundled], cwd: dirname(bundled) };
  const source = fileURLToPath(new URL('../../packages/cli/src/cli.ts', import.meta.url));
  return { file: process.execPath, args: ['--conditions=@socialpub/source', '--import', 'tsx', source], cwd: root };
}

const config = resolveConfig({ dataDir, host: '127.0.0.1', port: 0, rateLimitsEnabled: false }, process.env);
const daemon = await startDaemon(config, { logger: silentLogger, ...(mode === 'process' ? { sandboxProcess: cliCommand() } : {}) });
const sandboxState = () => ({ mode: daemon.sandbox.mode, pid: daemon.sandbox.pid, restarts: daemon.sandbox.restarts });
process.stdout.write(`${JSON.stringify({ url: daemon.url, pid: process.pid, sandbox: sandboxState() })}\n`);

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
    } else if (command === 'sandbox') {
      process.stdout.write(`${JSON.stringify({ sandbox: sandboxState() })}\n`);
    }
  })();
});

process.on('SIGTERM', () => {
  void daemon.close().then(() => process.exit(0));
});
