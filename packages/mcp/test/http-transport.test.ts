import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { HTTP_TOOLS, data, httpClient, setAgentApproval, startTestDaemon, text, toolErrorOf, publishedPost, type TestDaemon, type TestPost } from './harness';

type Post = TestPost;

let t: TestDaemon;
let mcp: Client;
const bearer = () => ({ Authorization: `Bearer ${t.key.api_key}` });

beforeAll(async () => {
  t = await startTestDaemon();
  t.connect('twitter', 'threads');
  mcp = await httpClient(t.daemon.url, bearer());
});
afterAll(async () => {
  await mcp?.close();
  await t?.stop();
});


describe('MCP over Streamable HTTP at /mcp', () => {
  it('lists every tool with input and output schemas and annotations', async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((x) => x.name)).toEqual(HTTP_TOOLS);
    const publish = tools.find((x) => x.name === 'publish_post')!;
    expect(publish.inputSchema.type).toBe('object');
    expect(publish.inputSchema.required).toEqual(['caption', 'platforms']);
    expect(Object.keys(publish.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['caption', 'platforms', 'platform_captions', 'platform_types', 'media_urls', 'publish_now', 'scheduled_for', 'type_schedule', 'require_approval', 'idempotency_key']),
    );
    expect(publish.outputSchema?.type).toBe('object');
    expect(publish.outputSchema?.required).toEqual(expect.arrayContaining(['job_id', 'status', 'targets']));
    expect(publish.annotations).toEqual({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true });
    expect(publish.description).toContain('instagram: feed (default)');
    expect(publish.description).toContain('+1h30m');
    // Each platform's options schema, Bluesky's included, from its core schema.
    const defs = (publish.inputSchema as { definitions?: Record<string, { properties?: Record<string, { allOf?: Array<{ $ref: string }> }> }> }).definitions ?? {};
    expect(defs.PlatformOptions?.properties?.bluesky?.allOf?.[0]?.$ref).toBe('#/definitions/BlueskyOptions');
    expect(Object.keys(defs.BlueskyOptions?.properties ?? {}).sort()).toEqual(['alt_texts', 'labels', 'langs', 'link_card']);
    expect(publish.description).toContain('bluesky: post (default)');
    expect(tools.find((x) => x.name === 'cancel_post')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tools.find((x) => x.name === 'list_posts')!.annotations).toMatchObject({ readOnlyHint: true });
    for (const tool of tools) expect(tool.outputSchema?.type, tool.name).toBe('object');
  });

  it('answers whoami with the key owner, as structured content and text', async () => {
    const r = await mcp.callTool({ name: 'whoami' });
    expect(r.isError).toBeFalsy();
    expect(data<{ user: { email: string; id: string } }>(r).user).toEqual({ email: 'tester@example.com', id: t.key.user_id });
    expect(text(r)).toBe(`Signed in as tester@example.com (user ${t.key.user_id})`);
  });

  it('holds a post made by an agent (agent-approval is on for a new data dir) until a person approves it', async () => {
    const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'agent draft', platforms: ['twitter'], publish_now: true } });
    const held = data<{ job_id: string; status: string }>(r);
    expect(held.status).toBe('pending_approval');
    expect(text(r)).toContain('waits for a person to approve it');
    const refused = await mcp.callTool({ name: 'approve_post', arguments: { job_id: held.job_id } });
    expect(refused.isError).toBe(true);
    expect(toolErrorOf(refused)).toMatchObject({ code: 'forbidden', next_step: expect.stringContaining('socialpub schedule approve') });
    // A person approves through the API (what `socialpub schedule approve` calls).
    const person = new SocialPub({ baseUrl: t.daemon.url, apiKey: t.key.api_key });
    expect((await person.scheduled.approve(held.job_id)).post.status).not.toBe('pending_approval');
    const post = await publishedPost(mcp, held.job_id);
    expect(post.source).toBe('mcp');
    expect(post.targets[0]?.post_url).toMatch(/^https:\/\/x\.com\//);
  });

  describe('with agent-approval off', () => {
    beforeAll(() => setAgentApproval(t, false));

    it('publishes to a sandbox connection and the simulator receives it', async () => {
      const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'hello from an MCP agent', platforms: ['twitter'], publish_now: true } });
      expect(r.isError).toBeFalsy();
      const result = data<{ job_id: string; status: string }>(r);
      expect(result.status).toBe('publishing');
      const post = await publishedPost(mcp, result.job_id);
      expect(post.targets[0]?.status).toBe('published');
      const sandbox = data<{ posts: { platform: string; body: Record<string, unknown> }[] }>(await mcp.callTool({ name: 'list_sandbox_posts', arguments: { platform: 'twitter' } }));
      expect(sandbox.posts.map((p) => p.body.text)).toContain('hello from an MCP agent');
    });

    it('schedules, re-times and cancels a post', async () => {
      const at = new Date(Date.now() + 3 * 3_600_000).toISOString();
      const scheduled = data<{ job_id: string; status: string }>(
        await mcp.callTool({ name: 'publish_post', arguments: { caption: 'later', platforms: ['twitter', 'threads'], scheduled_for: at, type_schedule: { threads: '+30m' } } }),
      );
      expect(scheduled.status).toBe('scheduled');
      const later = new Date(Date.now() + 5 * 3_600_000);
      const retimed = await mcp.callTool({ name: 'retime_post', arguments: { job_id: scheduled.job_id, scheduled_for: later.toISOString() } });
      const post = data<{ post: Post }>(retimed).post;
      expect(post.scheduled_for).toBe(later.toISOString());
      expect(post.targets.map((x) => [x.platform, x.scheduled_for])).toEqual([
        ['twitter', later.toISOString()],
        ['threads', new Date(later.getTime() + 30 * 60_000).toISOString()],
      ]);
      const cancelled = await mcp.callTool({ name: 'cancel_post', arguments: { job_id: scheduled.job_id } });
      expect(data<{ status: string }>(cancelled).status).toBe('cancelled');
      const listed = data<{ posts: Post[] }>(await mcp.callTool({ name: 'list_posts', arguments: { status: 'cancelled' } }));
      expect(listed.posts.map((p) => p.job_id)).toContain(scheduled.job_id);
    });

    it('takes a published post down with unpublish_post (destructive, idempotent), and a second call changes nothing', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.find((x) => x.name === 'unpublish_post')!.annotations).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true });
      const made = data<{ job_id: string }>(await mcp.callTool({ name: 'publish_post', arguments: { caption: 'up and down again', platforms: ['twitter'], publish_now: true } }));
      await publishedPost(mcp, made.job_id);
      const r = await mcp.callTool({ name: 'unpublish_post', arguments: { job_id: made.job_id } });
      expect(r.isError).toBeFalsy();
      const down = data<{ changed: boolean; targets: { platform: string; result: string }[]; post: Post }>(r);
      expect(down.changed).toBe(true);
      expect(down.targets).toEqual([expect.objectContaining({ platform: 'twitter', result: 'removed', status: 'removed' })]);
      expect(down.post.status).toBe('removed');
      expect(text(r)).toBe(`Took down 1 post of ${made.job_id}\ntwitter.tweet: removed`);
      const again = data<{ changed: boolean }>(await mcp.callTool({ name: 'unpublish_post', arguments: { job_id: made.job_id } }));
      expect(again.changed).toBe(false);
    });

    it('reads how a published post did with refresh_post_metrics and get_post_metrics', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.find((x) => x.name === 'get_post_metrics')!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      const made = data<{ job_id: string }>(await mcp.callTool({ name: 'publish_post', arguments: { caption: 'how did it do', platforms: ['twitter'], publish_now: true } }));
      await publishedPost(mcp, made.job_id);
      const none = await mcp.callTool({ name: 'get_post_metrics', arguments: { job_id: made.job_id } });
      expect(text(none)).toBe('twitter.tweet: not read yet');
      type Read = { targets: { platform: string; metrics: Record<string, number>; platform_metrics: Record<string, number>; collected_at: string; problem: unknown; history: unknown[] }[] };
      // Publishing goes first: right after it the publisher may still hold the connection (publishing_first); ask again.
      const r = await vi.waitFor(
        async () => {
          const answer = await mcp.callTool({ name: 'refresh_post_metrics', arguments: { job_id: made.job_id } });
          expect(answer.isError).toBeFalsy();
          expect(data<Read>(answer).targets[0]!.problem).toBeNull();
          return answer;
        },
        { timeout: 10_000, interval: 100 },
      );
      const read = data<Read>(r);
      const t = read.targets[0]!;
      expect(t.metrics.likes).toBe(t.platform_metrics.like_count);
      const n = t.history.length;
      expect(text(r)).toBe(`twitter.tweet: ${Object.entries(t.metrics).map(([k, v]) => `${k} ${v}`).join(', ')} (read ${t.collected_at}, ${n} reading${n === 1 ? '' : 's'})`);
      expect(data(await mcp.callTool({ name: 'get_post_metrics', arguments: { job_id: made.job_id } }))).toEqual(read);
    });

    it('sums what worked with get_analytics_summary (read-only), naming the top posts by job id', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.find((x) => x.name === 'get_analytics_summary')!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      const r = await mcp.callTool({ name: 'get_analytics_summary', arguments: { platform: 'twitter' } });
      expect(r.isError).toBeFalsy();
      const s = data<{ platform: string; totals: { posts: number; jobs: number; engagement: number }; top_posts: { job_id: string; engagement: number }[] }>(r);
      expect(s.platform).toBe('twitter');
      // The figures read by the test before (refresh_post_metrics): at least that post.
      expect(s.totals.posts).toBeGreaterThanOrEqual(1);
      expect(text(r).split('\n')[0]).toMatch(new RegExp(`^${s.totals.jobs} posts? \\(${s.totals.posts} targets?\\) from \\S+ to \\S+ on twitter: engagement ${s.totals.engagement}$`));
      expect(text(r)).toContain(`top: ${s.top_posts[0]!.job_id} (twitter) engagement ${s.top_posts[0]!.engagement}`);
      const bad = await mcp.callTool({ name: 'get_analytics_summary', arguments: { from: 'yesterday' } });
      expect(bad.isError).toBe(true);
    });

    it('exports the figures as CSV with export_analytics_csv (read-only), the REST export\'s text and its row count', async () => {
      const { tools } = await mcp.listTools();
      expect(tools.find((x) => x.name === 'export_analytics_csv')!.annotations).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
      // The post read by the metrics test before: the summary names it.
      const jobId = data<{ top_posts: { job_id: string }[] }>(await mcp.callTool({ name: 'get_analytics_summary', arguments: { platform: 'twitter' } })).top_posts[0]!.job_id;
      const r = await mcp.callTool({ name: 'export_analytics_csv', arguments: { job_id: jobId } });
      expect(r.isError, text(r)).toBeFalsy();
      const rest = await new SocialPub({ baseUrl: t.daemon.url, apiKey: t.key.api_key }).analytics.exportCsv({ job_id: jobId });
      const lines = rest.trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^job_id,platform,account,type,post_id,/);
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.slice(1).every((l) => l.startsWith(`${jobId},twitter,`))).toBe(true);
      expect(data(r)).toEqual({ csv: rest, rows: lines.length - 1 });
      expect(text(r)).toBe(rest);
      const unknown = await mcp.callTool({ name: 'export_analytics_csv', arguments: { job_id: 'job_nosuchpost' } });
      expect(toolErrorOf(unknown).code).toBe('not_found');
      const bad = await mcp.callTool({ name: 'export_analytics_csv', arguments: { from: '2026-12-24T00:00:00Z', to: '2026-12-20T00:00:00Z' } });
      expect([bad.isError, text(bad)]).toEqual([true, expect.stringContaining('from must be before to')]);
    });

    it('returns a refused publish as a tool error with the code, the platform and the next step', async () => {
      const r = await mcp.callTool({ name: 'publish_post', arguments: { caption: 'nope', platforms: ['instagram'], publish_now: true, media_urls: ['https://example.com/a.jpg'] } });
      expect(r.isError).toBe(true);
      const error = toolErrorOf(r);
      expect(error.code).toBe('platform_not_connected');
      expect(error.status).toBe(403);
      expect(error.details[0]).toMatchObject({ path: 'platforms', platform: 'instagram' });
      expect(error.next_step).toContain('socialpub connect instagram');
      expect(text(r)).toContain('next step: connect instagram first: socialpub connect instagram');
    });

    it('replays a publish with the same idempotency key instead of making a second job', async () => {
      const args = { caption: 'once only', platforms: ['threads'], scheduled_for: new Date(Date.now() + 7_200_000).toISOString(), idempotency_key: 'mcp-test-once' };
      const a = data<{ job_id: string }>(await mcp.callTool({ name: 'publish_post', arguments: args }));
      const b = data<{ job_id: string }>(await mcp.callTool({ name: 'publish_post', arguments: args }));
      expect(b.job_id).toBe(a.job_id);
    });
  });

  it('reads posts and platforms as resources', async () => {
    const { resourceTemplates } = await mcp.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual(['socialpub://posts/{job_id}']);
    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri)).toContain('socialpub://platforms');
    const postUri = resources.find((r) => r.uri.startsWith('socialpub://posts/'))!.uri;
    const read = await mcp.readResource({ uri: postUri });
    const body = JSON.parse((read.contents[0] as { text: string }).text) as { post: Post };
    expect(`socialpub://posts/${body.post.job_id}`).toBe(postUri);
    const platforms = JSON.parse(((await mcp.readResource({ uri: 'socialpub://platforms' })).contents[0] as { text: string }).text) as { platforms: { platform: string }[] };
    expect(platforms.platforms).toHaveLength(10);
    await expect(mcp.readResource({ uri: 'socialpub://posts/job_doesnotexist' })).rejects.toThrow(/Resource not found/);
  });
});
