import { AsyncLocalStorage } from 'node:async_hooks';
import type { MiddlewareHandler } from 'hono';
import { sandboxAccountKey } from '../is-sandbox-token';

/**
 * Which sandbox connection a simulator request comes from: the account key of its token
 * (`sandbox_at_<key>.<secret>`, see sandboxAccountKey), kept for the request's duration so
 * the posts it makes are recorded with it (sandbox_posts.account_key) and each user lists
 * only the posts of their own sandbox connections (issue 28: the sandbox was shared).
 */
const caller = new AsyncLocalStorage<{ accountKey: string | null }>();

/** The account key of the simulator request being handled; null outside one or for a token without a key. */
export function sandboxCallerKey(): string | null {
  return caller.getStore()?.accountKey ?? null;
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
      if (length <= MAX_FORM_BYTES) token = new URLSearchParams(await c.req.raw.clone().text()).get('access_token');
    }
    await caller.run({ accountKey: token ? sandboxAccountKey(token) : null }, next);
  };
}
