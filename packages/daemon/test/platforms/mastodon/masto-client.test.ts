import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createRestAPIClient, MastoHttpError } from 'masto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMastodonSimulator, MASTODON_HOST } from '../../../src/platforms/mastodon/sim/simulator';
import { systemClock } from '../../../src/util/clock';
import { fakeBytes } from '../shared/harness';
import { checkTraffic } from './openapi-check';

// masto (the JavaScript Mastodon client), unmodified, against the simulator at an origin of
// its own, as `socialpub sandbox endpoints` lists it (a request to /api/... is the
// simulator's /mastodon.social/api/...). masto waits real seconds between its media polls,
// so this file runs on the system clock with a short processing time.
const sim = createMastodonSimulator({ clock: systemClock, processingMs: 1_500 });
let server: ServerType;
let url: string;

beforeAll(async () => {
  const root = new Hono();
  root.route(`/${MASTODON_HOST}`, sim.app);
  const fetch = (req: Request) => {
    const u = new URL(req.url);
    u.pathname = `/${MASTODON_HOST}${u.pathname}`;
    return root.fetch(new Request(u, req));
  };
  // masto tells its errors by `instanceof Response`: the server must leave the global Response as fetch made it.
  server = serve({ fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false });
  await new Promise((r) => server.once('listening', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  // Every request masto sent and every answer the simulator gave agree with Mastodon's OpenAPI description.
  expect(checkTraffic(sim.log.requests)).toEqual([]);
});

const client = () => createRestAPIClient({ url, accessToken: 'sandbox-masto-token' });

describe('masto against the Mastodon simulator', () => {
  it('verifies the credentials of the sandbox account', async () => {
    const me = await client().v1.accounts.verifyCredentials();
    expect(me.username).toBe('sandbox');
    expect(me.id).toBe(sim.defaultAccount.id);
    expect(me.source.privacy).toBe('public');
  });

  it('uploads a video with v2.media.create and waits out its processing (202, then 206 until it has a URL)', { timeout: 20_000 }, async () => {
    const before = sim.log.requests.length;
    const media = await client().v2.media.create({ file: new Blob([new Uint8Array(fakeBytes('mp4', 20_000))], { type: 'video/mp4' }), description: 'A short clip', focus: '0.0,0.5' });
    expect(media.url).toMatch(/^https:\/\/mastodon\.social\/system\/media_attachments\/files\/\d+\/original\/file\.mp4$/);
    expect(media.description).toBe('A short clip');
    expect(media.type).toBe('video');
    const seen = sim.log.requests.slice(before).map((r) => `${r.method} ${r.path.replace(/\d{6,}/, ':id')} ${r.status}`);
    expect(seen[0]).toBe('POST /api/v2/media 202');
    expect(seen).toContain('GET /api/v1/media/:id 206');
    expect(seen.at(-1)).toBe('GET /api/v1/media/:id 200');
  });

  it('creates statuses with visibility, a content warning and a poll, a reply with media, and removes one', { timeout: 20_000 }, async () => {
    const masto = client();
    const first = await masto.v1.statuses.create({ status: 'Which do you prefer? #poll', visibility: 'unlisted', spoilerText: 'A question', language: 'en', poll: { options: ['Tea', 'Coffee'], expiresIn: 3600 } });
    expect(first.visibility).toBe('unlisted');
    expect(first.spoilerText).toBe('A question');
    expect(first.sensitive).toBe(true);
    expect(first.language).toBe('en');
    expect(first.poll?.options.map((o) => o.title)).toEqual(['Tea', 'Coffee']);
    expect(first.tags.map((t) => t.name)).toEqual(['poll']);

    const image = await masto.v2.media.create({ file: new Blob([new Uint8Array(fakeBytes('png', 5_000))], { type: 'image/png' }), description: 'A chart' });
    expect(image.url).not.toBeNull();
    const reply = await masto.v1.statuses.create({ status: 'Results soon', inReplyToId: first.id, mediaIds: [image.id], visibility: 'private' });
    expect(reply.inReplyToId).toBe(first.id);
    expect(reply.mediaAttachments.map((m) => m.id)).toEqual([image.id]);
    expect(reply.mediaAttachments[0]!.description).toBe('A chart');
    const context = await masto.v1.statuses.$select(first.id).context.fetch();
    expect(context.descendants.map((s) => s.id)).toEqual([reply.id]);

    const removed = await masto.v1.statuses.$select(reply.id).remove();
    expect(removed.id).toBe(reply.id);
    expect(removed.text).toBe('Results soon');
    const gone = await masto.v1.statuses.$select(reply.id).fetch().catch((e: unknown) => e);
    expect(gone).toBeInstanceOf(MastoHttpError);
    expect((gone as MastoHttpError).statusCode).toBe(404);
    expect(sim.log.posts.find((p) => p.postId === reply.id)?.removedAt).toBeTypeOf('number');
  });

  it('answers a repeated Idempotency-Key with the status it made', async () => {
    const masto = client();
    const meta = { requestInit: { headers: { 'Idempotency-Key': 'masto-once' } } };
    const a = await masto.v1.statuses.create({ status: 'Only once' }, meta);
    const b = await masto.v1.statuses.create({ status: 'Only once' }, meta);
    expect(b.id).toBe(a.id);
    expect(sim.log.posts.filter((p) => p.body.status === 'Only once')).toHaveLength(1);
  });

  it("refuses a status over the server's 500 characters with Mastodon's 422", async () => {
    const err = await client().v1.statuses.create({ status: 'x'.repeat(501) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MastoHttpError);
    expect((err as MastoHttpError).statusCode).toBe(422);
    expect((err as MastoHttpError).message).toBe('Validation failed: Text character limit of 500 exceeded');
    // A link counts 23 characters whatever its length: 470 + 1 + 23 fits.
    const fits = await client().v1.statuses.create({ status: `${'y'.repeat(470)} https://example.com/${'a'.repeat(200)}` });
    expect(fits.id).toMatch(/^\d+$/);
  });
});
