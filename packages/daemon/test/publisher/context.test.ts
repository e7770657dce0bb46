import type { PlatformAdapter, PublishContext } from '../../src/platforms/adapter';
import { writeFileSync, appendFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthExpiredError, PermanentError } from '../../src/platforms/errors';
import { FileLedger } from '../support/test-adapter';
import { retryDelay } from '../../src/publisher/backoff';
import { isOwnerDead, newLeaseOwner } from '../../src/publisher/lease-owner';
import { T0, useWorlds } from '../scheduler/harness';
import { useTempDirs } from '../support/temp-dirs';

const world = useWorlds();

/** A world whose twitter adapter is `publish`, recording the context it was given. */
function withAdapter(publish: (ctx: PublishContext) => Promise<{ postId: string; postUrl: string | null }>) {
  const seen: PublishContext[] = [];
  const adapter: PlatformAdapter = {
    platform: 'twitter',
    validate: () => [],
    publish: async (ctx) => {
      seen.push(ctx);
      return publish(ctx);
    },
    reconcile: async () => ({ state: 'unknown', reason: 'not used' }),
  };
  const w = world({ publisher: { adapters: new Map([['twitter', adapter]]) } });
  return { w, seen };
}

describe('the publish context', () => {
  it('describes the target and points sandbox connections at the simulator', async () => {
    const { w, seen } = withAdapter(async (ctx) => ({ postId: ctx.baseUrl('api.x.com'), postUrl: null }));
    const id = w.add({ due: T0 + 5, caption: 'hi' });
    await w.start();
    await w.advance(5);
    expect(seen[0]?.target).toEqual({ id, jobId: `job_${id}`, platform: 'twitter', type: 'feed', caption: 'hi', options: {}, dueAt: T0 + 5, attempt: 1, attemptStartedAt: T0 + 5 });
    expect(seen[0]?.credentials).toMatchObject({ connectionId: 'con_user-1_twitter', mode: 'sandbox' });
    expect(seen[0]?.media).toEqual([]);
    expect(w.row(id).post_id).toBe('http://127.0.0.1:1/sandbox/twitter/api.x.com');
  });

  it('uses https://<host> for live connections', async () => {
    const { w } = withAdapter(async (ctx) => ({ postId: ctx.baseUrl('api.x.com'), postUrl: null }));
    w.db.prepare("UPDATE connections SET mode = 'live' WHERE platform = 'twitter'").run();
    const id = w.add({ due: T0 });
    await w.start();
    expect(w.row(id).post_id).toBe('https://api.x.com');
  });

  it('hands refreshed tokens to the connections repository', async () => {
    const { w } = withAdapter(async (ctx) => {
      await ctx.saveTokens({ secrets: { access_token: 'new' }, tokenExpiresAt: T0 + 7_200_000 });
      return { postId: 'p1', postUrl: null };
    });
    w.add({ due: T0 });
    await w.start();
    expect(w.connections.saved).toEqual([{ connectionId: 'con_user-1_twitter', update: { secrets: { access_token: 'new' }, tokenExpiresAt: T0 + 7_200_000 } }]);
  });

  it('fails with auth_expired once the adapter marked the connection expired', async () => {
    const { w } = withAdapter(async (ctx) => {
      await ctx.markConnectionExpired('refresh token revoked');
      throw new PermanentError('invalid_grant', { platformCode: 'invalid_grant' });
    });
    const id = w.add({ due: T0 });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'auth_expired', platform_code: 'invalid_grant' });
    expect(w.db.prepare("SELECT status_reason FROM connections WHERE platform = 'twitter'").pluck().get()).toBe('refresh token revoked');
  });

  it('keeps a checkpoint across attempts so an adapter can resume', async () => {
    let calls = 0;
    const { w, seen } = withAdapter(async (ctx) => {
      calls++;
      if (calls === 1) {
        await ctx.checkpoint.save({ upload_id: 'up_1' });
        throw new (await import('../../src/platforms/errors')).RetryableError('503 while finalizing');
      }
      return { postId: String(ctx.checkpoint.data.upload_id), postUrl: null };
    });
    const id = w.add({ due: T0 });
    await w.start();
    await w.advance(30_000);
    expect(seen[1]?.checkpoint.data).toEqual({ upload_id: 'up_1' });
    expect(w.row(id)).toMatchObject({ status: 'published', post_id: 'up_1', attempts: 2 });
  });

  it('fails a target whose platform has no adapter in this build', async () => {
    const { w } = withAdapter(async () => ({ postId: 'x', postUrl: null }));
    const id = w.add({ due: T0, platform: 'youtube' });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'platform_error' });
    expect(w.row(id).error_message).toContain('youtube');
  });

  it('treats AuthExpiredError like an expired connection', async () => {
    const { w } = withAdapter(async () => {
      throw new AuthExpiredError('token revoked', { platformCode: '89' });
    });
    const id = w.add({ due: T0 });
    await w.start();
    expect(w.row(id)).toMatchObject({ status: 'failed', error_code: 'auth_expired', platform_code: '89' });
  });
});

describe('retryDelay', () => {
  it('doubles from the base up to the cap, jittered within the upper half', () => {
    const top = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n, { baseMs: 30_000, capMs: 3_600_000 }, () => 1));
    expect(top).toEqual([30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_600_000]);
    expect(retryDelay(3, { baseMs: 30_000, capMs: 3_600_000 }, () => 0)).toBe(60_000);
    expect(retryDelay(20, {}, () => 0.5)).toBe(2_700_000);
  });
});

describe('lease owners', () => {
  it('knows a missing process on this host is dead, and nothing else', () => {
    const me = newLeaseOwner();
    expect(isOwnerDead(me, me)).toBe(false);
    expect(isOwnerDead(null, me)).toBe(true);
    expect(isOwnerDead(`${hostname()}/999999999/x`, me)).toBe(true);
    expect(isOwnerDead(`${hostname()}/1/x`, me)).toBe(false);
    expect(isOwnerDead('elsewhere.example/999999999/x', me)).toBe(false);
    expect(isOwnerDead(`${hostname()}/${process.pid}/older`, me)).toBe(true);
  });
});

describe('FileLedger', () => {
  const tempDir = useTempDirs();

  it('keeps every post across reopenings and ignores a torn last line', () => {
    const dir = tempDir('sp-ledger-');
    const path = join(dir, 'ledger.jsonl');
    writeFileSync(path, '');
    const a = new FileLedger(path);
    a.append({ targetId: 't1', platform: 'twitter', postId: 'p1', attempt: 1, caption: 'c', mediaCount: 0, at: 1 });
    appendFileSync(path, '{"targetId":"t2","plat');
    const b = new FileLedger(path);
    expect(b.entries().map((e) => e.targetId)).toEqual(['t1']);
    expect(b.find('t1')?.postId).toBe('p1');
    expect(b.find('t2')).toBeUndefined();
  });
});
