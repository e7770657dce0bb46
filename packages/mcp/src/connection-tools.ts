import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Connection, SchemaMap } from '@socialpub/core';
import { z } from 'zod';
import type { SocialPubBackend } from './backend';
import { toolError, toolResult } from './tool-result';
import type { ToolExtra } from './wait-for-media';

/** A connection as the tools show it: never its sandbox password (a simulator sign-in the agent has no use for). */
const shown = (c: Connection): Connection => {
  const { sandbox_password: _password, ...rest } = c;
  return rest;
};

/** `twitter:brand (default) con_… sandbox, active: Brand Inc`: one account, as `platforms` names it. */
function connectionLine(c: Connection): string {
  const label = c.label ?? 'default';
  const state = c.status === 'active' ? (c.paused ? `active, paused until ${c.paused.until}` : 'active') : `${c.status}${c.status_reason ? ` (${c.status_reason})` : ''}`;
  const usage = c.is_default === false ? '' : ` (default: "${c.platform}" names it too)`;
  return `${c.platform}:${label}${usage} ${c.id} ${c.sandbox ? 'sandbox' : 'live'}, ${state}${c.name ? `: ${c.name}` : ''}`;
}

async function run(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return toolError(error);
  }
}

/**
 * The accounts tools (issue 39): `list_connections` (a read key may) and
 * `update_connection` (rename, make the default: a full key only, so a session of a
 * narrower key does not list it: tool-routes.ts). Connecting and removing an account stay
 * with a person (the dashboard, `socialpub connect`).
 */
export function registerConnectionTools(server: McpServer, { backend, schemas: S }: { backend: SocialPubBackend; schemas: SchemaMap }): void {
  const opts = (extra: ToolExtra) => ({ signal: extra.signal });
  const plain = <T extends z.ZodObject>(schema: T): T => schema.safeExtend({}) as unknown as T;

  server.registerTool(
    'list_connections',
    {
      title: 'My accounts on the networks',
      description:
        'Your connected accounts, several per network: each with its label (name it as "<network>:<label>" in platforms, e.g. "twitter:brand"), whether it is its network\'s default (what the bare network name means), live or sandbox, status and any rate-limit pause. Call it before publishing to a network where you have more than one account.',
      outputSchema: plain(S.ConnectionList),
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (extra) => run(async () => {
      const r = { data: (await backend.connections.list(opts(extra))).data.map(shown) };
      return toolResult(r, r.data.length === 0 ? 'No accounts connected yet: a person connects them (socialpub connect, or the dashboard).' : r.data.map(connectionLine).join('\n'));
    }),
  );

  server.registerTool(
    'update_connection',
    {
      title: 'Rename an account or make it the default',
      description:
        'Renames one of your accounts (label: 1-32 of a-z, 0-9, - and _, unique among your accounts of the network) and/or makes it its network\'s default (default: true): posts then name it by the new label, and the bare network name means the new default. Posts already accepted keep their account. Do it only when the user asked for it.',
      inputSchema: plain(S.ConnectionUpdateRequest).safeExtend({ connection_id: z.string().min(1).describe('con_… from list_connections') }),
      outputSchema: plain(S.Connection),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    ({ connection_id, ...change }, extra) => run(async () => {
      const r = shown(await backend.connections.update(connection_id, change, opts(extra)));
      return toolResult(r, connectionLine(r));
    }),
  );
}
