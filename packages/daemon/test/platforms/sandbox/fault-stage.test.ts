import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxFaults } from '@socialpub/core';
import { openAdmin } from '../../../src/admin/index';
import { createSandboxApp } from '../../../src/platforms/sandbox';
import { logSandboxFault, type AppliedFault } from '../../../src/platforms/sandbox/fault-stage';
import { SANDBOX_FAULTS_KEY } from '../../../src/platforms/sandbox/faults-store';
import { openDatabase, type DB } from '../../../src/store/database';
import { ManualClock } from '../../../src/util/clock';
import { useTempDirs } from '../../support/temp-dirs';
import { sandboxStore } from '../../support/sandbox-records';

/**
 * The fault stage in front of the simulators, served in-process (app.request: a reset
 * stands as a bare 502 there): whose call it is, which platform, which share.
 */

const tempDir = useTempDirs();
const dbs: DB[] = [];
afterEach(() => {
  for (const db of dbs.splice(0)) db.close();
});

function world(global: SandboxFaults = {}, randoms: number[] = []) {
  const dir = tempDir('sp-fault-stage-');
  const admin = openAdmin(dir);
  const userId = admin.createKey({ email: 'stage@example.com' }).user_id;
  const token = (platform: string) => `sandbox_at_${admin.addSandboxConnection(platform, { email: 'stage@example.com' }).account_id!.split('_').pop()!}.secret`;
  const tokens = { instagram: token('instagram'), facebook: token('facebook'), twitter: token('twitter') };
  admin.close();
  const db = openDatabase(join(dir, 'socialpub.db'));
  dbs.push(db);
  const applied: AppliedFault[] = [];
  const queue = [...randoms];
  const app = createSandboxApp({ store: sandboxStore(db), clock: new ManualClock() }, undefined, {
    faults: () => global,
    onFault: (f) => applied.push(f),
    random: () => (queue.length ? queue.shift()! : 0.999),
  });
  const setUserFaults = (faults: SandboxFaults) =>
    db.prepare('INSERT INTO settings (scope, key, value) VALUES (?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET value = excluded.value').run(userId, SANDBOX_FAULTS_KEY, JSON.stringify(faults));
  const me = (token: string) => app.request('/graph.facebook.com/v25.0/me?fields=id', { headers: { authorization: `Bearer ${token}` } });
  return { app, tokens, applied, setUserFaults, me, userId };
}

describe('the fault stage', () => {
  it("tells Instagram's calls from Facebook's on the one Graph host by the connection's token", async () => {
    const w = world();
    w.setUserFaults({ instagram: { server_error: 1 } });
    const ig = await w.me(w.tokens.instagram);
    expect(ig.status).toBe(503);
    expect(await ig.json()).toEqual({ error: { code: 503, message: 'Service Unavailable (simulated by the sandbox)', status: 'UNAVAILABLE' } });
    expect((await w.me(w.tokens.facebook)).status).toBe(200);
    expect(w.applied).toEqual([{ kind: 'server_error', platform: 'instagram', method: 'GET', path: '/graph.facebook.com/v25.0/me', userId: w.userId }]);
  });

  it("answers 429 in the platform's own shape, with its rate-limit headers", async () => {
    const w = world({ twitter: { rate_limited: 1 }, facebook: { rate_limited: 1 } });
    const x = await w.app.request('/api.x.com/2/users/me', { headers: { authorization: `Bearer ${w.tokens.twitter}` } });
    expect(x.status).toBe(429);
    expect(x.headers.get('x-rate-limit-remaining')).toBe('0');
    expect(Number(x.headers.get('x-rate-limit-reset'))).toBe(Math.ceil(new ManualClock().now() / 1000) + 900);
    expect(await x.json()).toEqual({ code: 88, message: 'Too Many Requests: rate limit exceeded' });
    const fb = await w.me(w.tokens.facebook);
    expect(fb.status).toBe(429);
    expect(JSON.parse(fb.headers.get('x-app-usage')!)).toEqual({ call_count: 100, total_cputime: 100, total_time: 100 });
    expect(((await fb.json()) as { error: { code: number; is_transient: boolean } }).error).toMatchObject({ code: 4, is_transient: true });
    // TikTok's envelope and Google's error, for any caller (`all`).
    const w2 = world({ all: { rate_limited: 1 } });
    const tt = await w2.app.request('/open.tiktokapis.com/v2/user/info/', { headers: { authorization: 'Bearer sandbox-test' } });
    expect(tt.status).toBe(429);
    expect(((await tt.json()) as { error: { code: string } }).error.code).toBe('rate_limit_exceeded');
    const yt = await w2.app.request('/www.googleapis.com/youtube/v3/channels?part=snippet&mine=true', { headers: { authorization: 'Bearer sandbox-test' } });
    expect(yt.status).toBe(429);
    expect(yt.headers.get('retry-after')).toBe('60');
    expect(((await yt.json()) as { error: { errors: { reason: string }[] } }).error.errors[0]!.reason).toBe('rateLimitExceeded');
  });

  it('a call without a sandbox connection meets only the faults for every platform, a platform\'s fields override all\'s', async () => {
    const w = world({ facebook: { server_error: 1 } });
    // A test token (no connection): the Graph host serves two platforms, so only `all` could apply.
    expect((await w.me('sandbox-test-token')).status).toBe(200);
    const w2 = world({ all: { server_error: 1 }, twitter: { server_error: 0 } });
    expect((await w2.me('sandbox-test-token')).status).toBe(503);
    expect((await w2.app.request('/api.x.com/2/users/me', { headers: { authorization: `Bearer ${w2.tokens.twitter}` } })).status).toBe(200);
  });

  it('draws each call once: reset, timeout, 5xx and 429 take consecutive slices of [0, 1)', async () => {
    // Shares 0.2 + 0.3 (5xx, 429): 0.1 -> 503, 0.3 -> 429, 0.6 -> answered.
    const w = world({ all: { server_error: 0.2, rate_limited: 0.3 } }, [0.1, 0.3, 0.6]);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await w.app.request('/api.x.com/2/users/me', { headers: { authorization: `Bearer ${w.tokens.twitter}` } })).status);
    expect(statuses).toEqual([503, 429, 200]);
  });

  it('logs a latency at debug (it applies to every call) and a fault that changes the answer at info', () => {
    const lines: [string, string, Record<string, unknown> | undefined][] = [];
    const log = logSandboxFault({ info: (msg, f) => lines.push(['info', msg, f]), debug: (msg, f) => lines.push(['debug', msg, f]) });
    log({ kind: 'latency', platform: 'twitter', method: 'POST', path: '/api.x.com/2/tweets', userId: 'u1', latencyMs: 250 });
    log({ kind: 'unanswered', platform: 'threads', method: 'POST', path: '/graph.threads.net/v1.0/me/threads_publish', userId: 'u1' });
    expect(lines).toEqual([
      ['debug', 'sandbox fault', { fault: 'latency', platform: 'twitter', method: 'POST', path: '/api.x.com/2/tweets', latency_ms: 250 }],
      ['info', 'sandbox fault', { fault: 'unanswered', platform: 'threads', method: 'POST', path: '/graph.threads.net/v1.0/me/threads_publish' }],
    ]);
  });

  it("finds a call's connection through the sandbox account index, not a scan of every connection", () => {
    const dir = tempDir('sp-fault-stage-index-');
    const db = openDatabase(join(dir, 'socialpub.db'));
    dbs.push(db);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT user_id, platform FROM connections WHERE mode = 'sandbox' AND account_id = ?").all('sandbox_twitter_x') as { detail: string }[];
    expect(plan.map((p) => p.detail).join('\n')).toMatch(/USING INDEX connections_sandbox_account/);
  });

  it('passes every call untouched when no faults are set', async () => {
    const w = world();
    expect((await w.me(w.tokens.facebook)).status).toBe(200);
    expect(w.applied).toEqual([]);
  });
});
