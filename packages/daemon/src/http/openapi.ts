import { API_PREFIX, ROUTES, VERSION, noTakedownsInWords, platformsInWords, takedownsInWords } from '@socialpub/core';
import { z } from 'zod';
import { eventsWebhooks } from './openapi-webhooks';
import { AUTHED, ERR, err, json, type Json } from './openapi-parts';
import { routePaths } from './route-table/openapi-paths';
import { dashboardPaths } from './openapi-dashboard';

/** /mcp: the MCP Streamable HTTP endpoint (JSON-RPC 2.0; its messages are MCP's, not described here: docs/mcp.md). */
function mcpEndpoint(): Json {
  const session = { name: 'Mcp-Session-Id', in: 'header', required: false, description: 'The session (from the answer to initialize); required after it.', schema: { type: 'string' } };
  const rpc = { description: 'A JSON-RPC 2.0 message, batch or response of the Model Context Protocol', content: json({ type: 'object' }) };
  const base = { tags: ['mcp'], security: AUTHED, parameters: [session] };
  const refused = {
    401: err('API key missing or refused (`unauthorized`), as for the API.'),
    403: { description: 'A browser Origin that is neither loopback nor the public URL (DNS rebinding protection); a JSON-RPC error.', content: json({ type: 'object' }) },
    404: { description: 'Unknown or expired session, or one opened with another key; a JSON-RPC error: initialize again.', content: json({ type: 'object' }) },
  };
  return {
    post: {
      ...base,
      operationId: 'mcpPost',
      summary: 'Send an MCP message (initialize opens a session); answered as JSON or an SSE stream (?response=json for JSON)',
      requestBody: { required: true, content: rpc.content },
      responses: { 200: rpc, 202: { description: 'A notification or response was accepted' }, 400: { description: 'Malformed JSON-RPC (-32700) or no session', content: json({ type: 'object' }) }, ...refused, 406: { description: 'Accept must list application/json and text/event-stream' }, 413: { description: 'Body over 10 MB' }, 415: { description: 'Content-Type must be application/json' } },
    },
    get: { ...base, operationId: 'mcpStream', summary: 'Open the session\'s SSE stream of server messages', responses: { 200: { description: 'text/event-stream' }, ...refused } },
    delete: { ...base, operationId: 'mcpEnd', summary: 'End the session', responses: { 200: { description: 'Session ended' }, ...refused } },
  };
}

/**
 * The declared routes' paths, with the one text that names platforms from the registry as it
 * is when the document is made (a platform registered from outside included): take-downs.
 */
function declaredPaths(): Record<string, Json> {
  const paths = routePaths(ROUTES);
  const unpublish = (paths[`${API_PREFIX}${ROUTES['scheduled.unpublish'].path}`] as Record<string, Json>).post!;
  unpublish.description = `Each published target whose platform deletes posts (${takedownsInWords()}) is deleted there and becomes \`removed\`; the others answer per target why they stay published (${noTakedownsInWords()} has no deletion API). Idempotent: a repeated call sends nothing for removed targets and answers \`changed: false\`. A deletion whose answer was lost is \`unknown\`; the next call looks the post up before deleting. Nothing published: 409.`;
  return paths;
}

/** Every schema in core's registry (those with a `.meta({ id })`), as OpenAPI components. */
function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, Json> };
  const out: Record<string, Json> = {};
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _s, $id: _i, ...rest } = schema;
    out[id] = rest;
  }
  return out;
}

const FILE_BODY = { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };

/** GET/HEAD of a prepared file (served by the media module, documented here with the rest). */
function preparedFile(operationId: string, summary: string): Json {
  return {
    operationId,
    summary,
    tags: ['media'],
    security: [],
    parameters: [
      { name: 'token', in: 'path', required: true, description: 'Unguessable token from prepared_url.', schema: { type: 'string' } },
      { name: 'name', in: 'path', required: true, description: 'File name from prepared_url.', schema: { type: 'string' } },
      { name: 'Range', in: 'header', required: false, description: 'One byte range (bytes=a-b, a-, -n).', schema: { type: 'string' } },
      { name: 'If-Range', in: 'header', required: false, schema: { type: 'string' } },
      { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' } },
    ],
    responses: {
      200: { description: 'The file, with its Content-Type, ETag and Accept-Ranges: bytes', content: FILE_BODY },
      206: { description: 'The requested range (Content-Range)', content: FILE_BODY },
      304: { description: 'Not modified (If-None-Match matched the ETag)' },
      404: ERR[404],
      410: err('The file expired 24 h after preparation (`gone`).'),
      416: { description: 'Range not satisfiable' },
    },
  };
}

let cached: Json | null = null;

/** The OpenAPI 3.1 document of every route the daemon serves, from core's zod schemas. */
export function openApiDocument(): Json {
  if (cached) return cached;
  cached = {
    openapi: '3.1.0',
    info: {
      title: 'socialpub',
      version: VERSION,
      description: `Self-hosted social publishing: publish and schedule posts to ${platformsInWords()}.`,
    },
    servers: [{ url: 'http://127.0.0.1:8787', description: 'The local daemon (default address)' }],
    // Every /api/agents/v1 endpoint also takes the dashboard's session cookie (unsafe methods with X-CSRF-Token).
    security: [...AUTHED, { Session: [] }],
    tags: [{ name: 'auth' }, { name: 'content' }, { name: 'scheduled' }, { name: 'media' }, { name: 'platforms' }, { name: 'settings' }, { name: 'queue' }, { name: 'events' }, { name: 'webhooks' }, { name: 'inbox' }, { name: 'keys' }, { name: 'connections' }, { name: 'review-links' }, { name: 'drafts' }, { name: 'dashboard' }, { name: 'system' }],
    paths: {
      // Every route declared in core's route table (routes/api-routes.ts), generated from it.
      ...declaredPaths(),
      '/files/{token}/{name}': {
        get: preparedFile('preparedFile', 'A prepared media file (unauthenticated, unguessable path; supports Range)'),
        head: preparedFile('preparedFileHead', 'Headers of a prepared media file (size, type, ETag)'),
      },
      ...dashboardPaths(),
      '/mcp': mcpEndpoint(),
    },
    webhooks: eventsWebhooks(),
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'sp_<id>_<secret>' },
        Session: { type: 'apiKey', in: 'cookie', name: 'sp_session', description: 'The dashboard\'s session (HttpOnly); unsafe methods also need X-CSRF-Token.' },
      },
    },
  };
  return cached;
}

/** `/a/:b` -> `/a/{b}` */
export const toOpenApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
