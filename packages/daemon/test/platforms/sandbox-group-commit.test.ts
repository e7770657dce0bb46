import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxApp } from '../../src/platforms/sandbox';
import { openSandboxDatabase, type OpenedSandboxDatabase } from '../../src/store/sandbox-database';
import { ManualClock } from '../../src/util/clock';
import { useTempDirs } from '../support/temp-dirs';

/**
 * The simulators' own file (sandbox.db) commits once per turn of the event loop: the calls
 * of one turn share one transaction, and none is answered before that transaction is on the
 * file (store/sandbox-store.ts `groupCommits`, awaited by sandboxCaller).
 */

const tempDir = useTempDirs();
const opened: OpenedSandboxDatabase[] = [];
afterEach(() => {
  for (const o of opened.splice(0)) o.close();
});

function sandbox() {
  const dir = tempDir('sp-group-commit-');
  const o = openSandboxDatabase({ path: join(dir, 'sandbox.db'), daemonDbPath: join(dir, 'socialpub.db') });
  opened.push(o);
  // Count the COMMITs the store runs (it prepares its BEGIN and COMMIT once, on first use).
  let commits = 0;
  const prepare = o.db.prepare.bind(o.db);
  o.db.prepare = ((sql: string) => {
    const stmt = prepare(sql);
    if (sql !== 'COMMIT') return stmt;
    const run = stmt.run.bind(stmt);
    stmt.run = ((...args: unknown[]) => {
      commits += 1;
      return run(...(args as []));
    }) as typeof stmt.run;
    return stmt;
  }) as typeof o.db.prepare;
  const app = createSandboxApp({ store: o.store, clock: new ManualClock() });
  const tweet = (n: number) =>
    app.request('/api.x.com/2/tweets', {
      method: 'POST',
      headers: { authorization: `Bearer sandbox_at_k${n}.secret`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: `post number ${n}` }),
    });
  /** Posts in the file, read over a connection of its own (what another process sees). */
  const onFile = () => {
    const db = new Database(join(dir, 'sandbox.db'), { readonly: true });
    try {
      return (db.prepare("SELECT json_extract(body, '$.text') AS text FROM sandbox_posts ORDER BY id").all() as { text: string }[]).map((r) => r.text);
    } finally {
      db.close();
    }
  };
  return { tweet, onFile, commits: () => commits };
}

describe("the simulators' own file", () => {
  it('answers a call only once what it made is on the file', async () => {
    const s = sandbox();
    const res = await s.tweet(1);
    expect(res.status).toBe(201);
    // Read at once by another connection, in the same turn as the answer.
    expect(s.onFile()).toEqual(['post number 1']);
  });

  it('commits the calls of one burst in fewer transactions than calls, every post kept', async () => {
    const s = sandbox();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => s.tweet(n)));
    expect(answers.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 201));
    expect(s.onFile().sort()).toEqual(Array.from({ length: 20 }, (_, n) => `post number ${n}`).sort());
    // Each call wrote at least twice (its rate window, then the post with its ids): 40 commits one by one.
    expect(s.commits()).toBeGreaterThan(0);
    expect(s.commits()).toBeLessThanOrEqual(5);
  });
});
