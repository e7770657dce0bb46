import type { Platform } from '@socialpub/core';
import type { Statement } from 'better-sqlite3';
import { createHash, randomUUID } from 'node:crypto';
import type { DB } from './database';
import { dialectOf } from './postgres/pg-database';
import { createSettingsRepository, type SettingsRepository } from './settings';

/** A post a simulator made, as sandbox_posts keeps it (what `socialpub sandbox posts` lists). */
export interface SandboxPostRecord {
  platform: Platform;
  accountId: string | null;
  postId: string;
  postUrl: string | null;
  kind: string;
  body: Record<string, unknown>;
  createdAt: number;
  /** When the simulator deleted it (a take-down); absent or null while it is up. */
  removedAt?: number | null;
}

/** A stored simulated post, with its row id. */
export interface StoredSandboxPost extends SandboxPostRecord {
  id: number;
  /** The account part of the tokens of the sandbox connection that made it (sandboxAccountKey); null for the simulator's own test tokens. */
  accountKey: string | null;
}

/** A sandbox connection as the simulators know it: its platform and the account key of its tokens. */
export interface SandboxAccount {
  platform: Platform;
  accountKey: string;
}

export interface SandboxPostFilter {
  platform?: Platform;
  limit?: number;
  /** The most recent `limit` posts (still oldest first) instead of the first ones. */
  latest?: boolean;
  /** Only the posts these sandbox connections made (none when empty). */
  accounts?: readonly SandboxAccount[];
}

interface SandboxPostRow {
  id: number;
  platform: Platform;
  account_id: string | null;
  post_id: string;
  post_url: string | null;
  kind: string;
  body: string;
  created_at: number;
  removed_at: number | null;
  account_key: string | null;
}

export type SandboxPostsRepository = ReturnType<typeof createSandboxPostsRepository>;

/** sandbox_posts: what the simulators made, across restarts. */
export function createSandboxPostsRepository(db: DB) {
  const insert = db.prepare('INSERT INTO sandbox_posts (platform, account_id, post_id, post_url, kind, body, created_at, account_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const mark = db.prepare('UPDATE sandbox_posts SET removed_at = ? WHERE platform = ? AND post_id = ? AND removed_at IS NULL');
  return {
    /** `accountKey`: the sandbox connection whose request made the post (platforms/shared/sim/sandbox-caller.ts). */
    add(p: SandboxPostRecord, accountKey: string | null): void {
      insert.run(p.platform, p.accountId, p.postId, p.postUrl, p.kind, JSON.stringify(p.body), p.createdAt, accountKey);
    },
    /** Marks a simulated post deleted, so `socialpub sandbox posts` shows it removed. */
    markRemoved(platform: Platform, postId: string, at: number): void {
      mark.run(at, platform, postId);
    },
    /** What the simulators received, oldest first (`latest`: the most recent `limit`, still oldest first). */
    list(filter: SandboxPostFilter = {}): StoredSandboxPost[] {
      const limit = Math.max(1, Math.min(filter.limit ?? 1000, 100_000));
      const order = filter.latest ? 'created_at DESC, id DESC' : 'created_at, id';
      const where: string[] = [];
      const params: (string | number)[] = [];
      if (filter.platform) {
        where.push('platform = ?');
        params.push(filter.platform);
      }
      if (filter.accounts) {
        const pairs = filter.accounts.map(() => '(platform = ? AND account_key = ?)');
        where.push(pairs.length > 0 ? `(${pairs.join(' OR ')})` : '1 = 0');
        for (const a of filter.accounts) params.push(a.platform, a.accountKey);
      }
      const selected = db
        .prepare<(string | number)[], SandboxPostRow>(`SELECT * FROM sandbox_posts ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} LIMIT ?`)
        .all(...params, limit);
      const rows = filter.latest ? selected.reverse() : selected;
      return rows.map((r) => ({
        id: r.id,
        platform: r.platform,
        accountId: r.account_id,
        postId: r.post_id,
        postUrl: r.post_url,
        kind: r.kind,
        body: JSON.parse(r.body) as Record<string, unknown>,
        createdAt: r.created_at,
        removedAt: r.removed_at,
        accountKey: r.account_key,
      }));
    },
  };
}

export type SandboxStateRepository = ReturnType<typeof createSandboxStateRepository>;

/** An entry another process's simulators wrote (or removed: `value` undefined) since this one last looked. */
export interface SandboxStateChange {
  simulator: string;
  kind: string;
  key: string;
  value: unknown;
}

/** Told of the entries of one (simulator, kind) that other processes changed. */
export type SandboxStateFollower = (key: string, value: unknown) => void;

/** sandbox_state: each simulator's persisted maps and counters (platforms/shared/sim/sim-state.ts). */
export function createSandboxStateRepository(db: DB) {
  // PostgreSQL only: the simulators of several daemons share the database, so a counter is
  // advanced in it, one statement a value, and no two processes hand out the same id; and
  // each process catches up on the entries the others wrote (`catchUp`).
  const shared = dialectOf(db) === 'postgres';
  const load = db.prepare<[string, string], { key: string; value: string }>('SELECT key, value FROM sandbox_state WHERE simulator = ? AND kind = ? AND removed = 0');
  const upsert = db.prepare('INSERT INTO sandbox_state (simulator, kind, key, value) VALUES (?, ?, ?, ?) ON CONFLICT (simulator, kind, key) DO UPDATE SET value = excluded.value');
  const remove = db.prepare('DELETE FROM sandbox_state WHERE simulator = ? AND kind = ? AND key = ?');
  // Shared: a counter is a SEQUENCE of its own (`sharedCounter`). nextval takes no row lock
  // and is not undone by a rollback: a counter advanced as an UPDATE of one row kept that row
  // locked until the end of the turn's group commit, and every other process's simulator
  // advancing it waited that long with its event loop held (docs/scaling.md). Gaps are fine,
  // a repeat never is.
  const storedCounter = db.prepare<[string, string, string], { value: string }>('SELECT value FROM sandbox_state WHERE simulator = ? AND kind = ? AND key = ?');
  const nextval = shared ? db.prepare<[string], { value: string }>('SELECT nextval(?)::text AS value') : null;
  // Shared: every write names the transaction that made it and this process, and a removal
  // leaves a tombstone, so the other processes find both (`catchUp`).
  const writer = randomUUID();
  const sharedUpsert = shared
    ? db.prepare(
        `INSERT INTO sandbox_state (simulator, kind, key, value, changed_tx, writer, removed) VALUES (?, ?, ?, ?, pg_current_xact_id()::text::bigint, ?, 0)
         ON CONFLICT (simulator, kind, key) DO UPDATE SET value = excluded.value, changed_tx = excluded.changed_tx, writer = excluded.writer, removed = 0`,
      )
    : null;
  const sharedRemove = shared
    ? db.prepare("UPDATE sandbox_state SET value = 'null', removed = 1, changed_tx = pg_current_xact_id()::text::bigint, writer = ? WHERE simulator = ? AND kind = ? AND key = ? AND removed = 0")
    : null;
  // Every transaction below the snapshot's xmin has ended: the rows it wrote are all
  // visible, so reading [last horizon, this horizon) each time misses none and needs no
  // lock, whatever order the writers committed in. The horizon comes with the rows, from
  // the same statement's snapshot; one index range, empty when nothing changed.
  const changedSince = shared
    ? db.prepare<[number, string], { horizon: number; simulator: string | null; kind: string; key: string; value: string; removed: number }>(
        `WITH h AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS x)
         SELECT h.x AS horizon, s.simulator, s.kind, s.key, s.value, s.removed
         FROM h LEFT JOIN sandbox_state s ON s.changed_tx >= ? AND s.changed_tx < h.x AND s.writer <> ?`,
      )
    : null;
  // Shared: an entry made once however many processes make it at the same moment (`claim`):
  // the first insert of the key wins, a tombstone is taken back; the others read the winner.
  const sharedClaim = shared
    ? db.prepare(
        `INSERT INTO sandbox_state (simulator, kind, key, value, changed_tx, writer, removed) VALUES (?, ?, ?, ?, pg_current_xact_id()::text::bigint, ?, 0)
         ON CONFLICT (simulator, kind, key) DO UPDATE SET value = excluded.value, changed_tx = excluded.changed_tx, writer = excluded.writer, removed = 0 WHERE sandbox_state.removed = 1`,
      )
    : null;
  const claimed = shared ? db.prepare<[string, string, string], { value: string; changed_tx: number | null }>('SELECT value, changed_tx FROM sandbox_state WHERE simulator = ? AND kind = ? AND key = ?') : null;
  // What other processes wrote from a transaction on, visible now (the claim's winner and what it made with it).
  const changedFrom = shared
    ? db.prepare<[number, string], { simulator: string; kind: string; key: string; value: string; removed: number }>('SELECT simulator, kind, key, value, removed FROM sandbox_state WHERE changed_tx >= ? AND writer <> ?')
    : null;
  const horizonNow = shared ? db.prepare<[], { x: number }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint AS x') : null;
  // Taken before a simulator first loads a map (read): what is written after is caught up on.
  let horizon: number | null = null;
  const begin = (): number => (horizon ??= horizonNow ? horizonNow.get()!.x : 0);
  const followers = new Map<string, SandboxStateFollower[]>();
  const followerKey = (simulator: string, kind: string) => `${simulator}\u0000${kind}`;
  return {
    /** Whether other processes' simulators write the same state (PostgreSQL): counters are then the database's sequences. */
    shared,
    /**
     * A shared counter (PostgreSQL): its SEQUENCE, made on first use, starting at `first` or
     * at the value a counter row of an older version (or a copied SQLite file) held next.
     * Call it outside the turn's writes (when a simulator is built): the sequence is created
     * in a transaction (a savepoint when one is open) and a concurrent creation by another
     * process is taken as done.
     */
    sharedCounter(simulator: string, kind: string, key: string, first: bigint): () => bigint {
      if (!nextval) throw new Error('counters are sequences only when the state is shared');
      const name = counterSequenceName(simulator, kind, key);
      const stored = storedCounter.get(simulator, kind, key)?.value;
      const held = stored === undefined ? null : (JSON.parse(stored) as unknown);
      const start = typeof held === 'string' && /^[0-9]+$/.test(held) && BigInt(held) > first ? BigInt(held) : first;
      try {
        db.transaction(() => db.exec(`CREATE SEQUENCE IF NOT EXISTS ${name} AS bigint MINVALUE ${start < 1n ? start : 1n} START WITH ${start}`))();
      } catch (e) {
        // Another process created it at the same moment (its catalog row won): it exists.
        const code = (e as { code?: unknown }).code;
        if (code !== '23505' && code !== '42P07') throw e;
      }
      // int8 is read as a JS number by the driver: as text, so ids past 2^53 stay exact.
      return () => BigInt(nextval.get(name)!.value);
    },
    /** The entries of one kind, their values parsed. */
    read(simulator: string, kind: string): [string, unknown][] {
      begin();
      return load.all(simulator, kind).map((r) => [r.key, JSON.parse(r.value)] as [string, unknown]);
    },
    /** Writes an entry's value (as JSON); `undefined` deletes it. */
    write(simulator: string, kind: string, key: string, value: unknown): void {
      if (sharedUpsert && sharedRemove) {
        if (value === undefined) sharedRemove.run(writer, simulator, kind, key);
        else sharedUpsert.run(simulator, kind, key, JSON.stringify(value), writer);
        return;
      }
      if (value === undefined) remove.run(simulator, kind, key);
      else upsert.run(simulator, kind, key, JSON.stringify(value));
    },
    /**
     * Shared only: writes the entry unless another process has (the database's key decides,
     * in the open transaction: a claim by another process still open is waited for), and
     * answers the value that stands. A claim lost to another process also takes in what that
     * process wrote from the winning transaction on (catchUp's rows, told to their followers,
     * before the horizon reaches them), so what it made with the entry is here too: X's user
     * beside the connection's key.
     */
    claim(simulator: string, kind: string, key: string, value: unknown): unknown {
      if (!sharedClaim || !claimed || !changedFrom) throw new Error('claims are for shared state only');
      if (sharedClaim.run(simulator, kind, key, JSON.stringify(value), writer).changes === 1) return value;
      const won = claimed.get(simulator, kind, key)!;
      // A row from before migration 290 names no transaction: it was there when this process loaded (nothing to take in).
      if (won.changed_tx === null) return JSON.parse(won.value) as unknown;
      for (const r of changedFrom.all(Number(won.changed_tx), writer)) {
        const change = r.removed === 1 ? undefined : (JSON.parse(r.value) as unknown);
        for (const f of followers.get(followerKey(r.simulator, r.kind)) ?? []) f(r.key, change);
      }
      return JSON.parse(won.value) as unknown;
    },
    /** Tells `follower` of the entries of (simulator, kind) that other processes write (catchUp). */
    follow(simulator: string, kind: string, follower: SandboxStateFollower): void {
      const k = followerKey(simulator, kind);
      const list = followers.get(k);
      if (list) list.push(follower);
      else followers.set(k, [follower]);
    },
    /**
     * Shared only (else nothing): reads the entries other processes wrote or removed since
     * the last call and tells their followers; returns them. One statement, an empty index
     * range when nothing changed. Called before each simulator request is answered.
     */
    catchUp(): SandboxStateChange[] {
      if (!changedSince) return [];
      const rows = changedSince.all(begin(), writer);
      const changes: SandboxStateChange[] = [];
      for (const r of rows) {
        horizon = Math.max(horizon!, r.horizon);
        if (r.simulator === null) continue;
        const change = { simulator: r.simulator, kind: r.kind, key: r.key, value: r.removed === 1 ? undefined : (JSON.parse(r.value) as unknown) };
        changes.push(change);
        for (const f of followers.get(followerKey(r.simulator, r.kind)) ?? []) f(change.key, change.value);
      }
      return changes;
    },
  };
}

/** The SEQUENCE of a shared counter: a plain lower-case identifier, its digest keeping distinct counters apart. */
export function counterSequenceName(simulator: string, kind: string, key: string): string {
  const plain = `sandbox_counter_${simulator}_${key}`.toLowerCase().replace(/[^a-z0-9_]/g, '_').slice(0, 50);
  return `${plain}_${createHash('sha256').update(`${simulator}\u0000${kind}\u0000${key}`).digest('hex').slice(0, 8)}`;
}

export type SandboxCodesRepository = ReturnType<typeof createSandboxCodesRepository>;

/** A single-use code as sandbox_codes keeps it: its value (JSON), when it expires, and whether it was exchanged. */
export interface StoredSandboxCode {
  value: unknown;
  expiresAt: number;
  used: boolean;
}

/**
 * sandbox_codes: the simulators' OAuth authorization codes (platforms/shared/sim/sim-codes.ts).
 * Read from the database on each exchange, not held in memory, so a code handed out by one
 * daemon's simulators is exchanged at another's; `take` is one conditional UPDATE, so of
 * two exchanges of one code (in one process or two) exactly one gets it.
 */
export function createSandboxCodesRepository(db: DB) {
  const insert = db.prepare('INSERT INTO sandbox_codes (simulator, kind, code, value, expires_at, used) VALUES (?, ?, ?, ?, ?, 0)');
  const sweep = db.prepare('DELETE FROM sandbox_codes WHERE simulator = ? AND kind = ? AND expires_at <= ?');
  const find = db.prepare<[string, string, string], { value: string; expires_at: number; used: number }>('SELECT value, expires_at, used FROM sandbox_codes WHERE simulator = ? AND kind = ? AND code = ?');
  const spend = db.prepare('UPDATE sandbox_codes SET used = 1 WHERE simulator = ? AND kind = ? AND code = ? AND used = 0 AND expires_at > ?');
  return {
    /** Stores a new code, and drops the codes of this kind expired at `now` (an index range). */
    issue(simulator: string, kind: string, code: string, value: unknown, expiresAt: number, now: number): void {
      sweep.run(simulator, kind, now);
      insert.run(simulator, kind, code, JSON.stringify(value), expiresAt);
    },
    /** The code as stored (exchanged or not), or undefined when unknown or swept. */
    get(simulator: string, kind: string, code: string): StoredSandboxCode | undefined {
      const row = find.get(simulator, kind, code);
      return row ? { value: JSON.parse(row.value) as unknown, expiresAt: Number(row.expires_at), used: row.used === 1 } : undefined;
    },
    /** Marks the code exchanged if it is not yet and has not expired at `now`: true for the one call that did. */
    take(simulator: string, kind: string, code: string, now: number): boolean {
      return spend.run(simulator, kind, code, now).changes === 1;
    },
  };
}

/** A rate window as it stands after a call was counted (or refused): its span, what it has used, and whether the call fit. */
export interface SandboxWindow {
  start: number;
  end: number;
  used: number;
  allowed: boolean;
}

/** One call against a rate window: what it costs and the limit, and the window a call opens when the last one has ended. */
export interface SandboxWindowCall {
  now: number;
  /** The window this call opens when none is running (or the last has ended at `now`). */
  start: number;
  end: number;
  limit: number;
  cost: number;
}

export type SandboxWindowsRepository = ReturnType<typeof createSandboxWindowsRepository>;

/**
 * sandbox_windows: the simulators' rate windows when several processes share them
 * (PostgreSQL; platforms/shared/sim/sim-windows.ts). Each call is one upsert: the window is
 * reset when it has ended, the cost added only when it fits the limit, and `allowed` says
 * which this statement did; the row is locked for the statement, so of two daemons taking
 * the last call of a window exactly one gets it.
 */
export function createSandboxWindowsRepository(db: DB) {
  const ended = 'CAST(:now AS BIGINT) >= sandbox_windows.end_at';
  const fits = 'sandbox_windows.used + CAST(:cost AS BIGINT) <= CAST(:limit AS BIGINT)';
  const take = db.prepare<[Record<string, string | number>], { start_at: number; end_at: number; used: number; allowed: number }>(
    `INSERT INTO sandbox_windows (simulator, key, start_at, end_at, used, allowed)
     VALUES (:simulator, :key, CAST(:start AS BIGINT), CAST(:end AS BIGINT),
       CASE WHEN CAST(:cost AS BIGINT) <= CAST(:limit AS BIGINT) THEN CAST(:cost AS BIGINT) ELSE 0 END,
       CASE WHEN CAST(:cost AS BIGINT) <= CAST(:limit AS BIGINT) THEN 1 ELSE 0 END)
     ON CONFLICT (simulator, key) DO UPDATE SET
       allowed = CASE WHEN ${ended} THEN excluded.allowed WHEN ${fits} THEN 1 ELSE 0 END,
       used = CASE WHEN ${ended} THEN excluded.used WHEN ${fits} THEN sandbox_windows.used + CAST(:cost AS BIGINT) ELSE sandbox_windows.used END,
       start_at = CASE WHEN ${ended} THEN excluded.start_at ELSE sandbox_windows.start_at END,
       end_at = CASE WHEN ${ended} THEN excluded.end_at ELSE sandbox_windows.end_at END
     RETURNING start_at, end_at, used, allowed`,
  );
  const held = db.prepare<[string, string], { used: number; end_at: number }>('SELECT used, end_at FROM sandbox_windows WHERE simulator = ? AND key = ?');
  const giveBack = db.prepare('UPDATE sandbox_windows SET used = CASE WHEN used >= ? THEN used - ? ELSE 0 END WHERE simulator = ? AND key = ? AND start_at = ?');
  return {
    /** Counts one call of `cost` against the window at `key` (opening `call.start`-`call.end` when none runs): the window after it. */
    take(simulator: string, key: string, call: SandboxWindowCall): SandboxWindow {
      const row = take.get({ simulator, key, now: call.now, start: call.start, end: call.end, limit: call.limit, cost: call.cost })!;
      return { start: Number(row.start_at), end: Number(row.end_at), used: Number(row.used), allowed: row.allowed === 1 };
    },
    /** What the window at `key` has used at `now` (0 when none runs). */
    used(simulator: string, key: string, now: number): number {
      const row = held.get(simulator, key);
      return row && now < Number(row.end_at) ? Number(row.used) : 0;
    },
    /** Takes back `cost` a call was charged in the window that started at `start` (another limit refused it after all). */
    giveBack(simulator: string, key: string, start: number, cost: number): void {
      giveBack.run(cost, cost, simulator, key, start);
    },
  };
}

export type SandboxStore = ReturnType<typeof createSandboxStore>;

/**
 * What the simulators read of the daemon's own tables: the owner of a sandbox connection
 * (connections) and the users' settings (their sandbox faults). Over the same connection when
 * the simulators share the daemon's database (in-process); over a read-only connection to
 * the daemon's file when they keep their own (store/sandbox-database.ts).
 */
export interface SandboxDaemonReads {
  /** The user (and platform) of the sandbox connection with this account id, if any. */
  ownerOf(accountId: string): { userId: string; platform: Platform } | undefined;
  /** The sha256 (hex) of the sandbox password of the sandbox connection with this account id; null when none (platforms/shared/sandbox-password.ts). */
  sandboxPasswordDigest(accountId: string): string | null;
  settings: Pick<SettingsRepository, 'get'>;
}

/** The daemon's tables read over `db` itself (the simulators in the daemon's process and database). */
export function daemonReadsOver(db: DB, settings: Pick<SettingsRepository, 'get'> = createSettingsRepository(db)): SandboxDaemonReads {
  const owner = db.prepare<[string], { user_id: string; platform: Platform }>("SELECT user_id, platform FROM connections WHERE mode = 'sandbox' AND account_id = ?");
  const digest = db.prepare<[string], { digest: unknown }>("SELECT meta->>'sandbox_password_sha256' AS digest FROM connections WHERE mode = 'sandbox' AND account_id = ?");
  return {
    ownerOf(accountId) {
      const row = owner.get(accountId);
      return row ? { userId: row.user_id, platform: row.platform } : undefined;
    },
    sandboxPasswordDigest(accountId) {
      const value = digest.get(accountId)?.digest;
      return typeof value === 'string' ? value : null;
    },
    settings,
  };
}

/**
 * What the simulators keep in the database: their state, their posts, and the transactions
 * around them, beside what they read of the daemon's tables (`daemon`: sandbox connections'
 * owners, users' faults). The daemon's store holds one over its own database (`store.sandbox`,
 * the simulators in-process); the simulators' own process keeps them in a file of its own
 * (store/sandbox-database.ts), so the daemon's writes never wait on theirs.
 */
/** How the simulators' transactions commit. */
export interface SandboxStoreOptions {
  /**
   * One transaction per turn of the event loop (the simulators' own file only, never the
   * daemon's, whose own transactions would meet it): the first write of a turn begins it,
   * every simulator write of the turn joins it, and it commits at the turn's end
   * (setImmediate). A call's answer waits for that commit (`pendingCommit`, awaited by
   * sandboxCaller), so nothing is answered before it is on the file, and what a call makes
   * still commits together. In a burst a commit wrote the same WAL pages once per call;
   * the commit was the largest single cost of the simulators' thread.
   */
  groupCommits?: boolean;
}

export function createSandboxStore(
  db: DB,
  settings: SettingsRepository = createSettingsRepository(db),
  daemon: SandboxDaemonReads = daemonReadsOver(db, settings),
  options: SandboxStoreOptions = {},
) {
  // Read once: the simulators' own file is NORMAL already (sandbox-database.ts), so its
  // transactions switch nothing; over the daemon's FULL file each is relaxed and restored.
  const baseline = Number(db.pragma('synchronous', { simple: true }));
  const relax = baseline > 1 && !db.memory && !db.readonly;
  const restore = `PRAGMA synchronous = ${baseline}`;
  let statements: { begin: Statement; commit: Statement } | null = null;
  // How many `atomically` functions are running: `apart` joins them rather than end their transaction.
  let depth = 0;
  const within = <T>(fn: () => T): T => {
    depth++;
    try {
      return checkSync(fn());
    } finally {
      depth--;
    }
  };
  const inTransaction = <T>(fn: () => T): T => {
    statements ??= { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT') };
    const { begin, commit } = statements;
    begin.run();
    try {
      return within(fn);
    } finally {
      commit.run();
    }
  };
  // The open transaction of this turn (groupCommits), the promise of its commit, and how to settle it.
  let turn: { committed: Promise<void>; settle: (error?: Error) => void } | null = null;
  const commitTurn = (): void => {
    const open = turn;
    if (!open) return;
    turn = null;
    try {
      statements!.commit.run();
      open.settle();
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
      open.settle(e as Error);
    }
  };
  const beginTurn = (): void => {
    statements ??= { begin: db.prepare('BEGIN IMMEDIATE'), commit: db.prepare('COMMIT') };
    statements.begin.run();
    let settle: (error?: Error) => void = () => undefined;
    const committed = new Promise<void>((resolve, reject) => (settle = (error) => (error ? reject(error) : resolve())));
    // Nobody may be waiting (a write outside a call): the failure is still each waiter's.
    committed.catch(() => undefined);
    turn = { committed, settle };
    setImmediate(commitTurn);
  };
  return {
    state: createSandboxStateRepository(db),
    posts: createSandboxPostsRepository(db),
    codes: createSandboxCodesRepository(db),
    windows: createSandboxWindowsRepository(db),
    /** The commit of this turn's writes (groupCommits), or null when none is open. */
    pendingCommit: (): Promise<void> | null => turn?.committed ?? null,
    /** Commits this turn's writes now (before the database closes). */
    commitNow: commitTurn,
    /** The users' settings (their sandbox faults), as the daemon keeps them. */
    settings: daemon.settings,
    /** The user (and platform) of the sandbox connection with this account id, if any. */
    ownerOf: (accountId: string) => daemon.ownerOf(accountId),
    /** The sha256 of a sandbox connection's password, by its account id (null: none). */
    sandboxPasswordDigest: (accountId: string) => daemon.sandboxPasswordDigest(accountId),
    /**
     * One transaction around `fn` (platforms/shared/sim/sim-state.ts SimState.atomically):
     * BEGIN IMMEDIATE, then COMMIT whether `fn` returns or throws; joins an open transaction.
     * `fn` must not be async: a transaction cannot span an await (other requests would write
     * into it).
     *
     * It commits with synchronous=NORMAL, as the daemon's relaxed writes do (commits.ts):
     * committed, so a killed process keeps it, without an fsync holding the event loop on
     * every simulated request. In the daemon's file (in-process) the WAL keeps commits in
     * order and the daemon's next durable commit syncs every frame before its own, so no
     * record of the daemon that follows a simulated post can outlive the post, even on power
     * loss. The simulators' own file (sandbox.db) is NORMAL throughout, so no pragma is
     * switched per call.
     */
    atomically<T>(fn: () => T): T {
      if (db.inTransaction) return within(fn);
      if (options.groupCommits) {
        beginTurn();
        return within(fn);
      }
      if (!relax) return inTransaction(fn);
      db.exec('PRAGMA synchronous = NORMAL');
      try {
        return inTransaction(fn);
      } finally {
        db.exec(restore);
      }
    },
    /**
     * Runs `fn` (synchronous) outside the turn's transaction: each of its statements commits
     * as it runs (wrap them in `transaction` to make them one), so a row it writes is locked
     * no longer than its statement: a row another process's simulators update too (a shared
     * rate window) is not held until the turn's group commit, where the other process would
     * wait for it with its event loop held (or two turns would deadlock over two rows). A
     * turn's transaction still open (groupCommits) is committed first; its callers were
     * waiting for that commit anyway. Inside `atomically` it joins that transaction instead,
     * which stays one atomic change.
     */
    apart<T>(fn: () => T): T {
      if (depth > 0) return checkSync(fn());
      if (turn) commitTurn();
      return checkSync(fn());
    },
    /** better-sqlite3's transaction around `fn`: rolled back when it throws. */
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  };
}

export function checkSync<T>(value: T): T {
  if (value instanceof Promise) throw new TypeError('atomically(fn): fn must be synchronous (a transaction cannot span an await)');
  return value;
}
