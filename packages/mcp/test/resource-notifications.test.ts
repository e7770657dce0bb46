import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { PLATFORMS_URI, postUri } from '@socialpub/mcp';
import { openDatabase } from '@socialpub/daemon';
import { SocialPub } from '@socialpub/sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { data, httpClient, startTestDaemon, type TestDaemon } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const bin = join(root, 'bin', 'socialpub');

/** What one MCP client was told: resources/updated URIs in order, and how many list_changed. */
function watch(client: Client) {
  const seen = { updated: [] as string[], listChanged: 0 };
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
    seen.updated.push(n.params.uri);
  });
  client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
    seen.listChanged++;
  });
  return seen;
}

let t: TestDaemon;
let rest: SocialPub;
let http: Client;
let stdio: Client;
let httpSeen: ReturnType<typeof watch>;
let stdioSeen: ReturnType<typeof watch>;
let stderr = '';
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

beforeAll(async () => {
  if (!existsSync(join(root, 'packages', 'cli', 'dist', 'cli.js'))) throw new Error('run `scripts/pnpm build` before the tests (CI does)');
  t = await startTestDaemon();
  t.connect('twitter');
  rest = new SocialPub({ baseUrl: t.daemon.url, apiKey: t.key.api_key });
  // The SDK's own client over both transports.
  http = await httpClient(t.daemon.url, { Authorization: `Bearer ${t.key.api_key}` });
  httpSeen = watch(http);
  stdio = new Client({ name: 'socialpub-test', version: '1.0.0' });
  stdioSeen = watch(stdio);
  const transport = new StdioClientTransport({ command: bin, args: ['mcp'], env: { PATH: process.env.PATH ?? '', ...t.env } as Record<string, string>, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await stdio.connect(transport);
  // The stdio server follows the event stream from its start: wait until it is open (a first REST change reaches it).
  await vi.waitFor(
    async () => {
      await rest.content.publish({ caption: 'warm-up', platforms: ['twitter'], scheduled_for: inAnHour() });
      expect(stdioSeen.listChanged).toBeGreaterThan(0);
    },
    { timeout: 15_000, interval: 500 },
  );
  // Under load the loop above may publish more than once, and the notifications of those
  // posts may still be on their way to either client. A barrier: each session's
  // notifications go out in the order of the events, so once both clients hear of a post
  // cancelled after all of them, nothing of the warm-up is left to arrive in a test.
  const barrier = await rest.content.publish({ caption: 'barrier', platforms: ['twitter'], scheduled_for: inAnHour() });
  const uri = postUri(barrier.job_id);
  for (const client of [http, stdio]) await client.subscribeResource({ uri });
  await rest.scheduled.cancel(barrier.job_id);
  for (const seen of [httpSeen, stdioSeen]) await vi.waitFor(() => expect(seen.updated).toContain(uri), { timeout: 15_000 });
  for (const client of [http, stdio]) await client.unsubscribeResource({ uri });
});
afterAll(async () => {
  await http?.close();
  await stdio?.close();
  await t?.stop();
});

const both = () =>
  [
    ['Streamable HTTP', () => httpSeen, () => http],
    ['stdio', () => stdioSeen, () => stdio],
  ] as const;

describe('resource notifications follow every change, not only the session’s own', () => {
  it('a post created through the REST API sends list_changed to both transports', async () => {
    const before = { http: httpSeen.listChanged, stdio: stdioSeen.listChanged };
    await rest.content.publish({ caption: 'made over REST', platforms: ['twitter'], scheduled_for: inAnHour() });
    await vi.waitFor(() => {
      expect(httpSeen.listChanged).toBe(before.http + 1);
      expect(stdioSeen.listChanged).toBe(before.stdio + 1);
    });
  });

  it('a REST retime and cancel of a subscribed post send resources/updated for it; other posts stay quiet', async () => {
    const watched = await rest.content.publish({ caption: 'watched', platforms: ['twitter'], scheduled_for: inAnHour() });
    const other = await rest.content.publish({ caption: 'not watched', platforms: ['twitter'], scheduled_for: inAnHour() });
    const uri = postUri(watched.job_id);
    for (const [, , client] of both()) await client().subscribeResource({ uri });
    for (const [, seen] of both()) seen().updated.length = 0;

    await rest.scheduled.update(watched.job_id, { scheduled_for: new Date(Date.now() + 7_200_000).toISOString() });
    await rest.scheduled.update(other.job_id, { scheduled_for: new Date(Date.now() + 7_200_000).toISOString() });
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([uri]));

    await rest.scheduled.cancel(watched.job_id);
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([uri, uri]));
    expect(httpSeen.updated).not.toContain(postUri(other.job_id));

    for (const [, , client] of both()) await client().unsubscribeResource({ uri });
  });

  it('the CLI cancelling a post (another process) notifies the subscribed sessions', async () => {
    const post = await rest.content.publish({ caption: 'cancelled from the CLI', platforms: ['twitter'], scheduled_for: inAnHour() });
    const uri = postUri(post.job_id);
    for (const [, , client] of both()) await client().subscribeResource({ uri });
    for (const [, seen] of both()) seen().updated.length = 0;
    const result = await t.run(['schedule', 'cancel', post.job_id, '--json']);
    expect(result.code, result.stderr).toBe(0);
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([uri]));
    for (const [, , client] of both()) await client().unsubscribeResource({ uri });
  });

  it('the publisher publishing a subscribed post notifies each step, read back as published', async () => {
    const post = await rest.content.publish({ caption: 'published by the publisher', platforms: ['twitter'], scheduled_for: new Date(Date.now() + 2_000).toISOString() });
    const uri = postUri(post.job_id);
    for (const [, , client] of both()) await client().subscribeResource({ uri });
    for (const [, seen] of both()) seen().updated.length = 0;
    const published = await rest.scheduled.waitUntilDone(post.job_id, { maxWait: 20_000, interval: 200, maxInterval: 500 });
    expect(published.status).toBe('published');
    // target.publishing, target.published and post.finished: at least two wake-ups (one may join the next).
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated.filter((u) => u === uri).length, name).toBeGreaterThanOrEqual(2));
    for (const [, , client] of both()) {
      const read = await client().readResource({ uri });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ post: { job_id: post.job_id, status: 'published' } });
    }
  }, 30_000);

  it('a change made through an MCP tool is notified once, to every session of the user', async () => {
    const made = data<{ job_id: string }>(await http.callTool({ name: 'publish_post', arguments: { caption: 'made over MCP', platforms: ['twitter'], scheduled_for: inAnHour() } }));
    const uri = postUri(made.job_id);
    for (const [, , client] of both()) await client().subscribeResource({ uri });
    for (const [, seen] of both()) seen().updated.length = 0;
    await stdio.callTool({ name: 'cancel_post', arguments: { job_id: made.job_id } });
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([uri]));
    // No second notification from the tool itself: a later change (a connection's refresh
    // failing) is notified after anything the tool could have sent, so once it arrives the
    // post's uri must still be there once.
    for (const [, , client] of both()) await client().subscribeResource({ uri: PLATFORMS_URI });
    const connection = t.daemon.store.connections.get(t.key.user_id, 'twitter');
    if (!connection) throw new Error('the test user has no twitter connection');
    t.daemon.store.events.refreshFailed(connection.id, 'invalid_grant', true, Date.now());
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([uri, PLATFORMS_URI]));
  });

  it('the platforms resource is notified when a connection changes, written in the daemon or by another process', async () => {
    for (const [, , client] of both()) await client().subscribeResource({ uri: PLATFORMS_URI });
    const connection = t.daemon.store.connections.get(t.key.user_id, 'twitter');
    if (!connection) throw new Error('the test user has no twitter connection');
    // As the token refresher writes it, through the daemon's own connection (woken at once).
    for (const [, seen] of both()) seen().updated.length = 0;
    t.daemon.store.events.refreshFailed(connection.id, 'invalid_grant', true, Date.now());
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([PLATFORMS_URI]));
    // Another process's connection to the same file (as the CLI's admin commands write): seen by the hub's poll.
    for (const [, seen] of both()) seen().updated.length = 0;
    const other = openDatabase(join(t.dataDir, 'socialpub.db'));
    try {
      other.prepare(`INSERT INTO events (user_id, type, subject, data, created_at) VALUES (?, 'connection.expired', ?, '{}', ?)`).run(t.key.user_id, connection.id, Date.now());
    } finally {
      other.close();
    }
    for (const [name, seen] of both()) await vi.waitFor(() => expect(seen().updated, name).toEqual([PLATFORMS_URI]));
    expect(stderr).not.toContain('resource notifications stopped');
  });
});
