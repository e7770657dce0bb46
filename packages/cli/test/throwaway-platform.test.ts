import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// A platform made up here, registered the way docs/platforms/adding-a-platform.md says: its
// description in core's registry (before core's schemas are built, hence hoisted above the
// imports below), then its daemon module (adapter, simulator, connect flow). Nothing else in
// the product names it, yet it must show in GET /platforms, the OpenAPI document, the CLI's
// `connect` and `publish --help`, and the MCP server's tools, and publish for real.
const THROWAWAY = await vi.hoisted(async () => {
  const { registerPlatform, definePlatform, mediaRule } = await import('@socialpub/core/platforms');
  const { z } = await import('zod');
  const description = definePlatform({
    id: 'throwaway',
    name: 'Throwaway',
    info: {
      types: ['post'],
      defaultType: 'post',
      caption: { max: 77, counting: 'characters' },
      media: { post: mediaRule(0, 2, ['image']) },
      pullsMedia: false,
    },
    followUps: { thread: false, firstComment: false, commentIsPost: false, refusesRepeatedText: false },
    takedown: false,
    connect: {
      flags: [{ flags: '--throwaway-key <key>', description: 'throwaway: the account key of the throwaway service', option: 'throwawayKey' }],
      questions: { 'Throwaway key': '--throwaway-key (the throwaway account key)' },
      examples: ['socialpub connect throwaway --throwaway-key tk_123'],
    },
    cli: { optionExamples: ['throwaway.mood=calm'] },
    mcp: { publishRule: 'platform_options.throwaway.mood sets the mood of the post (calm or loud).' },
    docs: { page: 'docs/platforms/adding-a-platform.md', summary: 'A platform of the test suite.' },
    options: z.strictObject({ mood: z.enum(['calm', 'loud']).optional().meta({ description: 'How the post sounds.' }) }).meta({ id: 'ThrowawayOptions' }),
  });
  registerPlatform(description);
  return description;
});

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PLATFORMS, PLATFORM_INFO, isPlatform, registerPlatform, type Platform } from '@socialpub/core';
import { registerPlatformModule, type PlatformAdapter, type PlatformModule } from '@socialpub/daemon';
import { Hono } from 'hono';
import { startTestDaemon } from './daemon-harness';

const HOST = 'api.throwaway.test';
const platform = THROWAWAY.id as Platform;

/** The in-test fake of the throwaway service: what it was sent, and the posts it made. */
const fake = { posts: [] as { id: string; text: string; mood: string | null; token: string | null }[] };

/** The service's simulator: POST /v1/posts makes a post, GET /v1/posts/:id finds one (reconcile). */
function throwawaySimulator() {
  const app = new Hono();
  app.post(`/${HOST}/v1/posts`, async (c) => {
    const body = (await c.req.json()) as { text?: unknown; mood?: unknown };
    if (typeof body.text !== 'string') return c.json({ error: 'text is required' }, 400);
    const post = { id: `tw_${fake.posts.length + 1}`, text: body.text, mood: typeof body.mood === 'string' ? body.mood : null, token: c.req.header('authorization') ?? null };
    fake.posts.push(post);
    return c.json({ id: post.id }, 201);
  });
  app.get(`/${HOST}/v1/posts/:id`, (c) => {
    const post = fake.posts.find((p) => p.id === c.req.param('id'));
    return post ? c.json(post) : c.json({ error: 'no such post' }, 404);
  });
  return { hosts: [HOST], app };
}

/** A minimal real adapter: one POST to the service, checkpointed, reconciled by looking the post up. */
const adapter: PlatformAdapter = {
  platform,
  validate: (input) => (input.caption.includes('forbidden') ? [{ path: 'caption', message: 'throwaway refuses the word "forbidden"' }] : []),
  async publish(ctx) {
    const res = await fetch(`${ctx.baseUrl(HOST)}/v1/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.credentials.secrets.access_token ?? ''}` },
      body: JSON.stringify({ text: ctx.target.caption, mood: ctx.target.options.mood ?? null }),
      signal: ctx.signal,
    });
    if (res.status !== 201) throw new Error(`throwaway answered ${res.status}`);
    const { id } = (await res.json()) as { id: string };
    await ctx.checkpoint.save({ postId: id });
    return { postId: id, postUrl: `https://${HOST}/p/${id}` };
  },
  async reconcile(ctx) {
    const id = ctx.checkpoint.data.postId;
    if (typeof id !== 'string') return { state: 'not_published', reason: 'no post was made' };
    const res = await fetch(`${ctx.baseUrl(HOST)}/v1/posts/${id}`, { signal: ctx.signal });
    return res.ok ? { state: 'published', outcome: { postId: id, postUrl: `https://${HOST}/p/${id}` } } : { state: 'not_published', reason: 'the post is not there' };
  },
};

const throwawayModule: PlatformModule = {
  platform,
  limits: PLATFORM_INFO[platform],
  createAdapter: () => adapter,
  simulator: throwawaySimulator,
  // Live: the account key from --throwaway-key (else asked), kept as the connection's token.
  connect: async (options, io, deps) => {
    const key = typeof options.throwawayKey === 'string' ? options.throwawayKey : await io.prompt('Throwaway key', { secret: true });
    return deps.connections.save(options.userId, platform, { mode: 'live', accountId: `acct_${key}`, accountName: `Throwaway ${key}`, secrets: { access_token: key } });
  },
  refresher: null,
  deletion: { supported: false, reason: 'the throwaway service deletes nothing' },
};
registerPlatformModule(throwawayModule);

let t: Awaited<ReturnType<typeof startTestDaemon>>;
beforeAll(async () => {
  t = await startTestDaemon();
});
afterAll(async () => {
  await t.stop();
});

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${t.daemon.url}/api/agents/v1${path}`, { ...init, headers: { 'x-api-key': t.key.api_key, 'content-type': 'application/json', ...init.headers } });

describe('a platform registered from a test', () => {
  it('is in core once registered, and core refuses a registration after its schemas were built', () => {
    expect(PLATFORMS.at(-1)).toBe('throwaway');
    expect(isPlatform('throwaway')).toBe(true);
    expect(PLATFORM_INFO[platform].caption.max).toBe(77);
    expect(() => registerPlatform({ ...THROWAWAY, id: 'latecomer' })).toThrow(/after core's schemas were built/);
    expect(isPlatform('latecomer')).toBe(false);
  });

  it('GET /platforms lists it with its table entry and its options schema', async () => {
    const res = await api('/platforms');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { platforms: { platform: string; types: string[]; default_type: string; caption: { max: number }; media: Record<string, { max: number; kinds: string[] }>; options: { properties?: Record<string, { enum?: string[] }> } | null; connection: unknown }[] };
    expect(body.platforms.map((p) => p.platform)).toEqual([...PLATFORMS]);
    const entry = body.platforms.find((p) => p.platform === 'throwaway')!;
    expect(entry).toMatchObject({ types: ['post'], default_type: 'post', caption: { max: 77 }, media: { post: { max: 2, kinds: ['image'] } }, connection: null });
    expect(entry.options?.properties?.mood?.enum).toEqual(['calm', 'loud']);
  });

  it('the OpenAPI document names it as a platform and carries its options', async () => {
    const res = await fetch(`${t.daemon.url}/api/agents/v1/openapi.json`, { headers: { 'x-api-key': t.key.api_key } });
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { components: { schemas: Record<string, { enum?: string[]; properties?: Record<string, unknown> }> } };
    expect(doc.components.schemas.Platform?.enum).toContain('throwaway');
    expect(JSON.stringify(doc.components.schemas.PlatformOptions?.properties?.throwaway)).toContain('ThrowawayOptions');
    expect(doc.components.schemas.ThrowawayOptions?.properties).toHaveProperty('mood');
  });

  it("the CLI's connect shows its flag and example, and connects it live through its module's flow and sandbox through its simulator", async () => {
    const help = await t.run('connect --help');
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('linkedin, pinterest or throwaway');
    expect(flat).toContain('--throwaway-key <key> throwaway: the account key of the throwaway service');
    expect(help.stdout).toContain('$ socialpub connect throwaway --throwaway-key tk_123');

    const live = await t.run(['connect', 'throwaway', '--throwaway-key', 'tk_live', '--user', 'live@example.com', '--json']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.json()).toMatchObject({ platform: 'throwaway', mode: 'live', account_name: 'Throwaway tk_live', email: 'live@example.com' });

    const sandbox = await t.run(['connect', 'throwaway', '--sandbox', '--user', 'sandbox@example.com', '--json']);
    expect(sandbox.code, sandbox.stderr).toBe(0);
    expect(sandbox.json()).toMatchObject({ platform: 'throwaway', mode: 'sandbox', email: 'sandbox@example.com' });
  });

  it("publish --help lists it and its option example", async () => {
    const help = await t.run('publish --help');
    expect(help.code).toBe(0);
    const flat = help.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain('linkedin, pinterest, throwaway)');
    expect(flat).toContain('throwaway.mood=calm');
  });

  it('publishes through its adapter to the fake, with its option, and its own rule refuses a caption', async () => {
    t.connect('throwaway');
    const refused = await api('/content/publish', { method: 'POST', body: JSON.stringify({ caption: 'a forbidden word', platforms: ['throwaway'], publish_now: true }) });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('throwaway refuses the word');

    const badOption = await api('/content/publish', { method: 'POST', body: JSON.stringify({ caption: 'hi', platforms: ['throwaway'], publish_now: true, platform_options: { throwaway: { mood: 'sleepy' } } }) });
    expect(badOption.status).toBe(400);
    expect(JSON.stringify(await badOption.json())).toContain('platform_options.throwaway.mood');

    const tooLong = await api('/content/publish', { method: 'POST', body: JSON.stringify({ caption: 'x'.repeat(78), platforms: ['throwaway'], publish_now: true }) });
    expect(tooLong.status).toBe(400);

    const res = await api('/content/publish', { method: 'POST', body: JSON.stringify({ caption: 'Hello from a throwaway', platforms: ['throwaway'], publish_now: true, platform_options: { throwaway: { mood: 'calm' } } }) });
    const accepted = (await res.json()) as { job_id: string };
    expect(res.status, JSON.stringify(accepted)).toBe(200);
    let target: { status: string; post_id: string | null } | undefined;
    for (let i = 0; i < 200 && target?.status !== 'published'; i++) {
      await new Promise((r) => setTimeout(r, 25));
      const one = (await (await api(`/content/scheduled?job_id=${accepted.job_id}`)).json()) as { post: { targets: { status: string; post_id: string | null }[] } };
      target = one.post.targets[0];
    }
    expect(target).toMatchObject({ status: 'published', post_id: 'tw_1' });
    expect(fake.posts).toEqual([{ id: 'tw_1', text: 'Hello from a throwaway', mood: 'calm', token: expect.stringMatching(/^Bearer sandbox_at_/) }]);
  });

  it("MCP's tools take it: publish_post's schema lists it and its options, and the texts teach its rule", async () => {
    const client = new Client({ name: 'throwaway-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.daemon.url}/mcp`), { requestInit: { headers: { 'x-api-key': t.key.api_key } } }));
    try {
      const { tools } = await client.listTools();
      const publish = tools.find((x) => x.name === 'publish_post')!;
      const schema = JSON.stringify(publish.inputSchema);
      expect(schema).toMatch(/"enum":\[[^\]]*"pinterest","throwaway"\]/);
      expect(schema).toContain('"throwaway":{"allOf":[{"$ref":"#/definitions/ThrowawayOptions"}]}');
      expect(schema).toContain('"ThrowawayOptions":{"type":"object","properties":{"mood":{"description":"How the post sounds.","type":"string","enum":["calm","loud"]}}');
      expect(publish.description).toContain('- throwaway: platform_options.throwaway.mood sets the mood of the post (calm or loud).');
      expect(publish.description).toMatch(/- throwaway: post \(default\): text alone or up to 2 image; caption at most 77 \(characters\)/);
      expect(tools.find((x) => x.name === 'list_platforms')?.description).toContain('linkedin, pinterest, throwaway)');
    } finally {
      await client.close();
    }
  });
});
