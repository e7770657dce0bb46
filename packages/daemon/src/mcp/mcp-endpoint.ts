import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { KeyScope } from '@socialpub/core';
import type { Context } from 'hono';
import { MAX_JSON_VALUES, textExceedsJsonValues } from '../util/json-values';
import type { EventsHub } from '../events/events-hub';
import type { EventsRepository } from '../store/events';
import type { AppFetch } from './in-process-backend';
import { inProcessBackend } from './in-process-backend';
import type { McpSessions } from './mcp-sessions';

/** Request headers a session's in-process calls carry: the key, and what a TLS proxy said. */
const FORWARDED = ['authorization', 'x-api-key', 'x-forwarded-proto', 'x-forwarded-for'] as const;

const rpcError = (c: Context, status: 400 | 404 | 413 | 415, code: number, message: string) => c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status);

/**
 * POST, GET and DELETE /mcp (Streamable HTTP), after the origin check and authentication.
 * An initialize without a session opens one; every other message names its session
 * (Mcp-Session-Id), which must have been opened with the same API key.
 */
export function mcpHandler({ sessions, fetch, address, hub, events }: { sessions: McpSessions; fetch: AppFetch; address: (c: Context) => string; hub: EventsHub; events: EventsRepository }) {
  /** `caller`: the key, its scope and the user authentication found (the HTTP layer's context). */
  return async function mcp(c: Context, caller: { keyId: string; userId: string; scope: KeyScope }): Promise<Response> {
    const sessionId = c.req.header('mcp-session-id');
    const { keyId, userId } = caller;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId, keyId);
      if (!session) return rpcError(c, 404, -32001, 'Session not found: it ended, expired, or was opened with another API key; initialize a new one');
      const authInfo = { token: keyId, clientId: userId, scopes: [] };
      if (c.req.method !== 'POST' || !/^application\/json\b/i.test(c.req.header('content-type') ?? '')) return session.transport.handleRequest(c.req.raw, { authInfo });
      // Read here (as the SDK would: at most the body limit), so a message of more than
      // 10,000 values is refused from one scan of its text, before JSON.parse builds it
      // (issue 28: half a million held the event loop for 200 ms).
      const text = await readLimited(c.req.raw, sessions.maxBodyBytes);
      if (text === null) return tooLarge(c, sessions.maxBodyBytes);
      if (textExceedsJsonValues(text)) return rpcError(c, 400, -32600, `Invalid Request: the message holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values (array items and object members)`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return rpcError(c, 400, -32700, `Parse error: ${(error as Error).message}`);
      }
      return session.transport.handleRequest(c.req.raw, { parsedBody: parsed, authInfo });
    }
    if (c.req.method !== 'POST') return rpcError(c, 400, -32000, 'Bad Request: no Mcp-Session-Id; send initialize first');
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\b/i.test(type)) return rpcError(c, 415, -32000, 'Unsupported Media Type: send JSON-RPC with Content-Type: application/json');
    const text = await readLimited(c.req.raw, sessions.maxBodyBytes);
    if (text === null) return tooLarge(c, sessions.maxBodyBytes);
    if (textExceedsJsonValues(text)) return rpcError(c, 400, -32600, `Invalid Request: the message holds more than ${MAX_JSON_VALUES.toLocaleString('en')} values (array items and object members)`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return rpcError(c, 400, -32700, `Parse error: ${(error as Error).message}`);
    }
    if (!isInitializeRequest(body)) return rpcError(c, 400, -32000, 'Bad Request: no Mcp-Session-Id; the first message must be initialize');
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const v = c.req.header(name);
      if (v !== undefined) headers[name] = v;
    }
    const transport = await sessions.open({ userId: userId, keyId }, inProcessBackend(fetch, headers, address(c), { hub, events, userId }), { json: c.req.query('response') === 'json', scope: caller.scope });
    return transport.handleRequest(c.req.raw, { parsedBody: body, authInfo: { token: keyId, clientId: userId, scopes: [] } });
  };
}

const tooLarge = (c: Context, max: number) => rpcError(c, 413, -32000, `Payload too large: the request body is larger than ${Math.round(max / (1024 * 1024))} MB`);

/** The body as text, or null past `max` bytes (declared, or counted as it arrives). */
async function readLimited(req: Request, max: number): Promise<string | null> {
  const declared = Number(req.headers.get('content-length') ?? Number.NaN);
  if (declared > max) return null;
  if (!req.body) return '';
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
