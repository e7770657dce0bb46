import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import { sandboxAccountKey } from '../is-sandbox-token';

/**
 * Which sandbox connection a simulator request comes from: the account key of its token
 * (`sandbox_at_<key>.<secret>`, see sandboxAccountKey), kept for the request's duration so
 * the posts it makes are recorded with it (sandbox_posts.account_key) and each user lists
 * only the posts of their own sandbox connections (issue 28: the sandbox was shared).
 */
const caller = new AsyncLocalStorage<{ accountKey: string | null; token: string | null; commit?: Promise<void> }>();

/**
 * Notes that the request being handled wrote into a transaction that commits later (the
 * simulators' own file commits once per turn, store/sandbox-store.ts `groupCommits`): its
 * answer waits for that commit (sandboxCaller), so nothing is answered before it is on file.
 */
export function awaitCommitBeforeAnswer(commit: Promise<void> | null): void {
  const ctx = caller.getStore();
  if (ctx && commit) ctx.commit = commit;
}

/** The account key of the simulator request being handled; null outside one or for a token without a key. */
export function sandboxCallerKey(): string | null {
  return caller.getStore()?.accountKey ?? null;
}

/**
 * The request being handled acts for the sandbox connection of account key `key` without
 * carrying its token (a session its owner opened with the connection's sandbox password,
 * e.g. Bluesky's createSession): what it posts is recorded as that connection's.
 */
export function actAsSandboxConnection(key: string): void {
  const ctx = caller.getStore();
  if (ctx) ctx.accountKey = key;
}

/** The token of the simulator request being handled, as sandboxCaller found it (the fault stage reads it); undefined outside one. */
export function sandboxCallerToken(): string | null | undefined {
  return caller.getStore()?.token;
}

/** Form bodies (Graph API calls may carry access_token there) are read up to this size to find it. */
const MAX_FORM_BYTES = 64 * 1024;

/** Finds the request's token (Authorization header, access_token in the query or a small form body) and keeps its account key. */
export function sandboxCaller(): MiddlewareHandler {
  return async (c, next) => {
    const auth = c.req.header('authorization');
    let token = auth ? (/^(?:Bearer|OAuth)\s+(\S+)/i.exec(auth)?.[1] ?? null) : null;
    token ??= c.req.query('access_token') ?? null;
    if (token === null && /^application\/x-www-form-urlencoded/i.test(c.req.header('content-type') ?? '')) {
      const length = Number(c.req.header('content-length') ?? NaN);
      // Hono keeps the body it read (c.req's cache), so the simulator reads this text again
      // rather than a clone of the stream (every later read of a form goes through c.req).
      if (length <= MAX_FORM_BYTES) token = new URLSearchParams(await c.req.text()).get('access_token');
    }
    const ctx: { accountKey: string | null; token: string | null; commit?: Promise<void> } = { accountKey: token ? sandboxAccountKey(token) : null, token };
    await caller.run(ctx, next);
    // A write still to commit (its turn's transaction): answered only once it is on file.
    if (ctx.commit) await ctx.commit;
  };
}
