import { API_PREFIX, JOB_STATUSES, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, MAX_NEXT_SLOTS, MAX_PREPARE_URLS, MAX_UPLOAD_FILENAME, SANDBOX_POSTS_LIMIT_DEFAULT, SANDBOX_POSTS_LIMIT_MAX, VERSION, noTakedownsInWords, platformsInWords, takedownsInWords } from '@socialpub/core';
import { z } from 'zod';
import { eventsPaths, eventsWebhooks } from './openapi-events';
import { dashboardPaths } from './openapi-dashboard';

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const ok = (id: string, description = 'Success') => ({ description, content: json(ref(id)) });
const err = (description: string) => ({ description, content: json(ref('Error')) });

const ERR = {
  400: err('Invalid or missing parameters (`invalid_request`); `details` lists each problem.'),
  401: err('API key missing, malformed, unknown, revoked or rotated, or sent in another header (`unauthorized`).'),
  403: err('Forbidden: another user\'s resource (`forbidden`), a platform not connected (`platform_not_connected`), no Facebook page (`facebook_page_not_selected`), or plain HTTP behind a proxy (`https_required`).'),
  404: err('No such resource (`not_found`).'),
  409: err('Conflict with the resource\'s state (`conflict`) or an Idempotency-Key reused with another body (`idempotency_conflict`).'),
  413: err('Request body larger than 10 MB (`payload_too_large`).'),
  415: err('Body is not JSON (`unsupported_media_type`).'),
  429: {
    description: 'Rate limit of the endpoint class exceeded (`rate_limited`); wait Retry-After seconds.',
    headers: { 'Retry-After': { description: 'Whole seconds to wait (at least 1).', schema: { type: 'integer', minimum: 1 } } },
    content: json(ref('Error')),
  },
  500: err('Internal error (`internal`); no details leak.'),
  503: {
    description: 'The database stayed busy (`unavailable`); nothing was written; retry after Retry-After.',
    headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 1 } } },
    content: json(ref('Error')),
  },
} as const;

const pick = (...codes: (keyof typeof ERR)[]) => Object.fromEntries(codes.map((c) => [String(c), ERR[c]]));
const AUTHED = [{ ApiKey: [] }, { Bearer: [] }];
const SERIES_ID = { name: 'series_id', in: 'query', required: true, description: 'The series (ser_…).', schema: { type: 'string', minLength: 1 } };
const JOB_ID = { name: 'job_id', in: 'query', required: true, description: 'The job (job_…).', schema: { type: 'string', minLength: 1 } };
const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description: 'Replays the first answer for the same body within 24 h (header Idempotent-Replayed: true); another body is a 409.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};
const SOURCE = {
  name: 'X-SocialPub-Source',
  in: 'header',
  required: false,
  description: 'How the job is made, recorded as the post\'s `source`: api (default), mcp or cli. With agent-approval on, an `mcp` job waits in pending_approval.',
  schema: { type: 'string', enum: ['api', 'mcp', 'cli'] },
};
const RATE_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed in the window of this endpoint class.', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};
const limited = (response: Json) => ({ ...response, headers: RATE_HEADERS });

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
  const p = (path: string) => `${API_PREFIX}${path}`;
  const health = {
    get: {
      operationId: 'health',
      summary: 'Health of the daemon and its scheduler (unauthenticated)',
      tags: ['system'],
      security: [],
      responses: { 200: ok('Health', 'Healthy'), 503: ok('Health', 'The scheduler has stalled') },
    },
  };
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
    tags: [{ name: 'auth' }, { name: 'content' }, { name: 'scheduled' }, { name: 'media' }, { name: 'platforms' }, { name: 'settings' }, { name: 'queue' }, { name: 'events' }, { name: 'webhooks' }, { name: 'keys' }, { name: 'connections' }, { name: 'review-links' }, { name: 'dashboard' }, { name: 'system' }],
    paths: {
      [p('/auth/validate')]: {
        post: {
          operationId: 'validateKey',
          summary: 'Check an API key and return its user',
          tags: ['auth'],
          responses: { 200: limited(ok('AuthValidateResponse')), ...pick(401, 429, 500, 503) },
        },
      },
      [p('/content/publish')]: {
        post: {
          operationId: 'publish',
          summary: 'Publish now or schedule a post on one or more platforms',
          tags: ['content'],
          parameters: [IDEMPOTENCY_KEY, SOURCE],
          requestBody: { required: true, content: json(ref('PublishRequest')) },
          responses: { 200: limited(ok('PublishResult', 'Stored; publishing, scheduled or waiting for approval')), ...pick(400, 401, 403, 409, 413, 415, 429, 500, 503) },
        },
      },
      [p('/content/validate')]: {
        post: {
          operationId: 'validatePublish',
          summary: 'Run every check of publish without storing anything',
          tags: ['content'],
          requestBody: { required: true, content: json(ref('PublishRequest')) },
          responses: { 200: limited(ok('ValidateResult')), ...pick(400, 401, 413, 415, 429, 500, 503) },
        },
      },
      [p('/content/scheduled')]: {
        get: {
          operationId: 'listScheduled',
          summary: 'List posts (or get one with job_id)',
          tags: ['scheduled'],
          parameters: [
            { name: 'job_id', in: 'query', required: false, description: 'Return this one post as {post}.', schema: { type: 'string' } },
            { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: [...JOB_STATUSES, 'all'], default: 'all' } },
            { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: LIST_LIMIT_MAX, default: LIST_LIMIT_DEFAULT } },
            { name: 'cursor', in: 'query', required: false, description: 'next_cursor of the previous page.', schema: { type: 'string' } },
          ],
          responses: {
            200: limited({ description: 'A page of posts, or one post', content: json({ oneOf: [ref('PostList'), ref('PostResponse')] }) }),
            ...pick(400, 401, 403, 404, 429, 500, 503),
          },
        },
        patch: {
          operationId: 'updateScheduled',
          summary: 'Re-time a post (offsets move, absolute times stay) or edit its captions',
          tags: ['scheduled'],
          parameters: [JOB_ID],
          requestBody: { required: true, content: json(ref('UpdateRequest')) },
          responses: { 200: limited(ok('UpdateResponse')), ...pick(400, 401, 403, 404, 409, 413, 415, 429, 500, 503) },
        },
        delete: {
          operationId: 'cancelScheduled',
          summary: 'Cancel every target that has not started',
          tags: ['scheduled'],
          parameters: [JOB_ID],
          responses: { 200: limited(ok('CancelResponse')), ...pick(400, 401, 403, 404, 409, 429, 500, 503) },
        },
      },
      [p('/content/scheduled/approve')]: {
        post: {
          operationId: 'approveScheduled',
          summary: 'Approve a post waiting for approval',
          tags: ['scheduled'],
          parameters: [JOB_ID],
          responses: { 200: limited(ok('UpdateResponse')), ...pick(400, 401, 403, 404, 409, 429, 500, 503) },
        },
      },
      [p('/content/scheduled/reject')]: {
        post: {
          operationId: 'rejectScheduled',
          summary: 'Reject a post waiting for approval (its pending targets are cancelled), optionally with a reason',
          tags: ['scheduled'],
          parameters: [JOB_ID],
          requestBody: { required: false, content: json(ref('RejectRequest')) },
          responses: { 200: limited(ok('UpdateResponse')), ...pick(400, 401, 403, 404, 409, 429, 500, 503) },
        },
      },
      [p('/content/scheduled/unpublish')]: {
        post: {
          operationId: 'unpublishScheduled',
          summary: 'Take a published post down: delete it on every platform that allows it (extension)',
          description:
            `Each published target whose platform deletes posts (${takedownsInWords()}) is deleted there and becomes \`removed\`; the others answer per target why they stay published (${noTakedownsInWords()} has no deletion API). Idempotent: a repeated call sends nothing for removed targets and answers \`changed: false\`. A deletion whose answer was lost is \`unknown\`; the next call looks the post up before deleting. Nothing published: 409.`,
          tags: ['scheduled'],
          parameters: [JOB_ID],
          responses: { 200: limited(ok('UnpublishResponse')), ...pick(400, 401, 403, 404, 409, 429, 500, 503) },
        },
      },
      [p('/content/series')]: {
        get: {
          operationId: 'listSeries',
          summary: 'List recurring posts with their next occurrences (or get one with series_id)',
          tags: ['scheduled'],
          parameters: [{ name: 'series_id', in: 'query', required: false, description: 'Return this one series as {series}.', schema: { type: 'string' } }],
          responses: {
            200: limited({ description: 'The series, or one series', content: json({ oneOf: [ref('SeriesList'), ref('SeriesResponse')] }) }),
            ...pick(400, 401, 403, 404, 429, 500, 503),
          },
        },
        delete: {
          operationId: 'cancelSeries',
          summary: 'Cancel a whole series: no more occurrences, and every scheduled one is cancelled',
          tags: ['scheduled'],
          parameters: [SERIES_ID],
          responses: { 200: limited(ok('SeriesCancelResponse')), ...pick(400, 401, 403, 404, 429, 500, 503) },
        },
      },
      [p('/settings')]: {
        get: {
          operationId: 'getSettings',
          summary: 'The caller\'s settings (timezone, approval workflow)',
          tags: ['settings'],
          responses: { 200: limited(ok('SettingsResponse')), ...pick(401, 429, 500, 503) },
        },
        patch: {
          operationId: 'updateSettings',
          summary: 'Change the caller\'s timezone (the approval workflow changes with the CLI only)',
          tags: ['settings'],
          requestBody: { required: true, content: json(ref('SettingsUpdate')) },
          responses: { 200: limited(ok('SettingsResponse')), ...pick(400, 401, 413, 415, 429, 500, 503) },
        },
      },
      [p('/queue')]: {
        get: {
          operationId: 'getQueue',
          summary: 'The caller\'s weekly posting slots',
          tags: ['queue'],
          responses: { 200: limited(ok('QueueResponse')), ...pick(401, 429, 500, 503) },
        },
        put: {
          operationId: 'replaceQueue',
          summary: 'Replace the weekly posting slots (posts already queued keep their times)',
          tags: ['queue'],
          requestBody: { required: true, content: json(ref('QueueUpdate')) },
          responses: { 200: limited(ok('QueueResponse')), ...pick(400, 401, 413, 415, 429, 500, 503) },
        },
      },
      [p('/queue/next')]: {
        get: {
          operationId: 'nextQueueSlots',
          summary: 'The next free slots of the queue',
          tags: ['queue'],
          parameters: [
            { name: 'count', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_NEXT_SLOTS, default: 10 } },
            { name: 'platforms', in: 'query', required: false, description: 'Comma-separated: only slots a post to these platforms may take.', schema: { type: 'string' } },
          ],
          responses: { 200: limited(ok('QueueNextResponse')), ...pick(400, 401, 429, 500, 503) },
        },
      },
      [p('/platforms')]: {
        get: {
          operationId: 'listPlatforms',
          summary: 'Content types, caption limits and media rules per platform, with the caller\'s connections',
          tags: ['platforms'],
          responses: { 200: limited(ok('PlatformsResponse')), ...pick(401, 429, 500, 503) },
        },
      },
      [p('/platforms/tiktok/creator-info')]: {
        get: {
          operationId: 'getTiktokCreatorInfo',
          summary: "The caller's TikTok creator info (extension): the privacy levels the creator may post with now, and the interaction settings",
          description:
            'The same creator_info/query the publisher makes before every TikTok post. platform_options.tiktok.privacy_level must be one of privacy_level_options. No TikTok connection: 403 platform_not_connected; a refused token: 403 forbidden; TikTok not answering or rate limiting: 503.',
          tags: ['platforms'],
          responses: { 200: limited(ok('TiktokCreatorInfoResponse')), ...pick(401, 403, 429, 500, 503) },
        },
      },
      [p('/sandbox/posts')]: {
        get: {
          operationId: 'listSandboxPosts',
          summary: 'What the platform simulators received (extension): the latest posts made by the sandbox connections of the caller',
          tags: ['platforms'],
          parameters: [
            { name: 'platform', in: 'query', required: false, description: 'Only this platform.', schema: ref('Platform') },
            { name: 'limit', in: 'query', required: false, description: `At most this many, the most recent (default ${SANDBOX_POSTS_LIMIT_DEFAULT}).`, schema: { type: 'integer', minimum: 1, maximum: SANDBOX_POSTS_LIMIT_MAX } },
          ],
          responses: { 200: limited(ok('SandboxPostsResponse')), ...pick(400, 401, 429, 500, 503) },
        },
      },
      [p('/sandbox/faults')]: {
        get: {
          operationId: 'getSandboxFaults',
          summary: "The latency and faults the caller's sandbox connections meet (extension), and those the daemon applies to everyone",
          tags: ['platforms'],
          responses: { 200: limited(ok('SandboxFaultsResponse')), ...pick(401, 429, 500, 503) },
        },
        put: {
          operationId: 'setSandboxFaults',
          summary: "Replace the caller's sandbox faults (extension): latency ranges and shares of 5xx, 429, timeouts, resets and made-but-unanswered calls, for all platforms or per platform",
          description: 'The simulators read them on every call: the next sandbox call of the caller meets them. `{ "faults": {} }` clears them. See docs/platforms/simulators.md for what the daemon does in each case.',
          tags: ['platforms'],
          requestBody: { required: true, content: json(ref('SandboxFaultsRequest')) },
          responses: { 200: limited(ok('SandboxFaultsResponse')), ...pick(400, 401, 413, 415, 429, 500, 503) },
        },
        delete: {
          operationId: 'clearSandboxFaults',
          summary: "Clear the caller's sandbox faults (extension)",
          tags: ['platforms'],
          responses: { 200: limited(ok('SandboxFaultsResponse')), ...pick(401, 429, 500, 503) },
        },
      },
      [p('/media/prepare')]: {
        post: {
          operationId: 'prepareMedia',
          summary: `Fetch, check and re-host up to ${MAX_PREPARE_URLS} media URLs in the background`,
          tags: ['media'],
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { required: true, content: json(ref('PrepareRequest')) },
          responses: { 200: limited(ok('PrepareResponse')), ...pick(400, 401, 409, 413, 415, 429, 500, 503) },
        },
      },
      [p('/media/upload')]: {
        post: {
          operationId: 'uploadMedia',
          summary: 'Extension: upload one local file as the raw body; answers a media task already completed with it',
          description:
            'Not in the base interface. The body (any Content-Type; the format is judged from the bytes) is streamed to disk, never buffered, ' +
            'under the media cap (500 MB unless the daemon sets a lower one), not the 10 MB JSON limit. The answer has the shape of ' +
            'GET /media/status/{task_id}; the prepared_url lives 24 h like any prepared file (longer while a scheduled target uses it). ' +
            'With an Idempotency-Key, the same bytes and file name within 24 h replay the first answer; other bytes are a 409.',
          tags: ['media'],
          parameters: [
            {
              name: 'filename',
              in: 'query',
              required: false,
              description: 'The file\'s name; only [A-Za-z0-9._-] of its last path segment are kept, with the extension of the sniffed format.',
              schema: { type: 'string', maxLength: MAX_UPLOAD_FILENAME },
            },
            { ...IDEMPOTENCY_KEY, description: 'Replays the first answer for the same bytes and file name within 24 h (Idempotent-Replayed: true); other bytes are a 409.' },
          ],
          requestBody: {
            required: true,
            content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
          },
          responses: {
            200: limited(ok('MediaUploadResponse', 'Stored: a completed media task with the one file')),
            400: err('Empty body, a filename too long, or a malformed Idempotency-Key (`invalid_request`).'),
            413: err('Declared or actual size past the media cap (`payload_too_large`; details[0].code `too_large`); the connection is closed.'),
            415: err('An HTML page or a format other than JPEG, PNG, GIF, MP4, MOV or AVI (`unsupported_media_type`; details[0].code `html_page` or `unsupported_format`).'),
            ...pick(401, 409, 429, 500, 503),
          },
        },
      },
      [p('/media/status/{task_id}')]: {
        get: {
          operationId: 'mediaStatus',
          summary: 'Progress and prepared files of a media task',
          tags: ['media'],
          parameters: [{ name: 'task_id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { 200: limited(ok('MediaStatus')), ...pick(401, 403, 404, 429, 500, 503) },
        },
      },
      '/files/{token}/{name}': {
        get: preparedFile('preparedFile', 'A prepared media file (unauthenticated, unguessable path; supports Range)'),
        head: preparedFile('preparedFileHead', 'Headers of a prepared media file (size, type, ETag)'),
      },
      ...eventsPaths(),
      ...dashboardPaths(),
      '/mcp': mcpEndpoint(),
      '/healthz': health,
      [p('/healthz')]: { get: { ...health.get, operationId: 'healthVersioned' } },
      [p('/openapi.json')]: {
        get: {
          operationId: 'openapi',
          summary: 'This document (unauthenticated)',
          tags: ['system'],
          security: [],
          responses: { 200: { description: 'OpenAPI 3.1 document', content: json({ type: 'object' }) } },
        },
      },
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
