import { randomBytes } from 'node:crypto';
import type { Platform } from '@socialpub/core';
import type { Hono } from 'hono';
import { resolveConfig, type ConfigInput, type DaemonConfig } from '../../src/config';
import type { AppEnv } from '../../src/http/env';
import type { SchedulerHooks, SchedulerStatus } from '../../src/ports/scheduler';
import { type DB } from '../../src/store/database';
import { openTestDatabase } from '../support/store-dialects';
import { createStore, type Store } from '../../src/store/store';
import type { User } from '../../src/store/users';
import { ManualClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { testApp, type TestAppDeps } from '../support/test-app';

export const API = '/api/agents/v1';

/** A scheduler double that records what the HTTP layer tells it. */
export class RecordingScheduler implements SchedulerHooks {
  changed: string[][] = [];
  state: SchedulerStatus = { running: true, lastTick: null, stalled: false, wheelSize: 0 };
  targetsChanged(ids: readonly string[]): void {
    this.changed.push([...ids]);
  }
  status(): SchedulerStatus {
    return this.state;
  }
}

export interface HarnessOptions {
  clock?: ManualClock;
  dbPath?: string;
  config?: ConfigInput;
  secrets?: SecretBox;
  deps?: Partial<TestAppDeps>;
}

export interface Harness {
  app: Hono<AppEnv>;
  db: DB;
  store: Store;
  clock: ManualClock;
  config: DaemonConfig;
  scheduler: RecordingScheduler;
  user: User;
  key: string;
  /** JSON request with the harness user's key (X-API-Key) unless headers say otherwise. */
  call(method: string, path: string, opts?: { body?: unknown; headers?: Record<string, string>; raw?: RequestInit['body'] }): Promise<Response>;
  /** Another user with a key. */
  addUser(email: string): { user: User; key: string };
  connect(platforms: readonly Platform[], userId?: string): void;
}

/** The app over an in-memory (or given) database, a ManualClock and one user with a key. */
export function harness(opts: HarnessOptions = {}): Harness {
  const clock = opts.clock ?? new ManualClock(Date.UTC(2026, 11, 25, 9, 0, 0));
  const db = openTestDatabase(opts.dbPath ?? ':memory:');
  const secrets = opts.secrets ?? new SecretBox(randomBytes(32));
  const store = createStore(db, { secrets, clock });
  const config = resolveConfig({ dataDir: '/nonexistent/socialpub-test', ...opts.config }, {});
  const scheduler = new RecordingScheduler();
  // Every answer of a declared route is checked against its schema (a mismatch is a 500).
  const { app } = testApp({ db, store, config, clock, scheduler, adapters: new Map(), validateResponses: true, ...opts.deps });

  const addUser = (email: string) => {
    const { user } = store.users.ensure(email, clock.now());
    const { apiKey } = store.apiKeys.create(user.id, 'test', clock.now());
    return { user, key: apiKey };
  };
  const first = addUser('owner@example.com');

  return {
    app,
    db,
    store,
    clock,
    config,
    scheduler,
    user: first.user,
    key: first.key,
    addUser,
    connect(platforms, userId = first.user.id) {
      for (const p of platforms) {
        store.connections.save(userId, p, {
          mode: 'sandbox',
          accountId: `acct_${p}`,
          pageId: p === 'facebook' ? 'page_1' : null,
          pageName: p === 'facebook' ? 'Page' : null,
          secrets: { access_token: `tok_${p}` },
        });
      }
    },
    call(method, path, { body, headers, raw } = {}) {
      const h: Record<string, string> = { 'X-API-Key': first.key, ...headers };
      let payload: RequestInit['body'] | undefined = raw;
      if (body !== undefined) {
        payload = typeof body === 'string' ? body : JSON.stringify(body);
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['Content-Type'] = 'application/json';
      }
      for (const [k, v] of Object.entries(h)) if (v === '') delete h[k];
      return Promise.resolve(app.request(path, { method, headers: h, body: payload }));
    },
  };
}

/** The one error body, checked, with its code. */
export async function errorOf(res: Response): Promise<{ code: string; message: string; details?: { path: string; message: string }[]; retry_after?: number }> {
  const body = (await res.json()) as { success: boolean; error: { code: string; message: string } };
  if (body.success !== false || typeof body.error?.code !== 'string' || typeof body.error.message !== 'string') {
    throw new Error(`not the error body: ${JSON.stringify(body)}`);
  }
  return body.error;
}

export const at = (iso: string) => Date.parse(iso);
