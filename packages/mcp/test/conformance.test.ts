import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startKeyProxy } from './key-proxy';
import { startTestDaemon, type TestDaemon } from './harness';

/**
 * The MCP conformance suite (@modelcontextprotocol/conformance, a devDependency) drives the
 * daemon's /mcp as a server: every scenario of its active suite, those that do not apply
 * listed in conformance-baseline.yml. It cannot send an API key, so it talks to the daemon
 * through a loopback proxy that adds one.
 */
const root = fileURLToPath(new URL('../../..', import.meta.url));
const conformanceBin = join(root, 'node_modules', '.bin', 'conformance');
const baseline = fileURLToPath(new URL('./conformance-baseline.yml', import.meta.url));

let t: TestDaemon;
let proxy: Awaited<ReturnType<typeof startKeyProxy>>;
let work: string;
beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter');
  proxy = await startKeyProxy(t.daemon.url, t.key.api_key);
  work = mkdtempSync(join(tmpdir(), 'socialpub-conformance-')); // it writes results/ there
});
afterAll(async () => {
  await proxy?.close();
  await t?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('MCP conformance suite against /mcp', () => {
  it('passes every applicable server scenario (the others are the baseline)', async () => {
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(conformanceBin, ['server', '--url', `${proxy.url}/mcp`, '--expected-failures', baseline], { cwd: work, timeout: 150_000, maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });
    const summary = run.stdout.slice(run.stdout.indexOf('=== SUMMARY ==='));
    expect(run.code, `${summary}\n${run.stderr.slice(-2_000)}`).toBe(0);
    for (const scenario of ['server-initialize', 'ping', 'tools-list', 'tools-call-error', 'server-sse-multiple-streams', 'resources-list', 'resources-subscribe', 'resources-unsubscribe', 'dns-rebinding-protection']) {
      expect(summary).toMatch(new RegExp(`✓ ${scenario}: [1-9]\\d* passed, 0 failed`));
    }
  }, 180_000);
});
