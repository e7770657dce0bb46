import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { metaSandbox } from '../../src/platforms/meta/sim/sandbox';
import { openDatabase, type DB } from '../../src/store/database';
import { ManualClock } from '../../src/util/clock';
import { fakeBytes } from '../platforms/shared/harness';
import { serveContractOrigins, type ContractOrigins } from './harness';
import { sandboxStore } from '../support/sandbox-records';

/**
 * Issue 15, deliverable 6 for Instagram, Facebook and Threads: Graph calls exactly as Meta's
 * docs show them (docs/reference/platforms.md §1, §2, §4, §12.1, §12.2, §12.4: parameters
 * in the query string of a POST, `Authorization: Bearer`), sent to the Meta simulator's
 * own origins as the daemon serves them, only the origin changed. (facebook-nodejs-business-sdk
 * builds every URL from a fixed https://graph.facebook.com and cannot be pointed at another
 * origin without changing it, so plain calls it is; docs/platforms/instagram.md.)
 */

let db: DB;
let clock: ManualClock;
let origins: ContractOrigins;

beforeEach(async () => {
  db = openDatabase(':memory:');
  clock = new ManualClock();
  origins = await serveContractOrigins([metaSandbox({ store: sandboxStore(db), clock })]);
});
afterEach(async () => {
  await origins.close();
  db.close();
});

const TOKEN = 'sandbox_at_metacontract.secret';

/** `curl -X <method> "https://<host>/v23.0/<path>?<params>" -H "Authorization: Bearer <token>"` against the simulator's origin. */
async function graph<T = Record<string, unknown>>(host: string, method: string, path: string, params: Record<string, string> = {}, token = TOKEN): Promise<{ status: number; body: T }> {
  const url = new URL(`${origins.http[host]}/v23.0${path}`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as T };
}

describe('Graph calls as Meta documents them, against the Meta simulator', () => {
  it('Instagram: image container, status, media_publish, the media read back and listed', async () => {
    const me = await graph<{ id: string; username: string }>('graph.instagram.com', 'GET', '/me', { fields: 'id,username' });
    expect(me.body.id).toMatch(/^1\d{15}$/);
    const container = await graph<{ id: string }>('graph.instagram.com', 'POST', `/${me.body.id}/media`, { image_url: 'https://example.com/photo.jpg', caption: 'From the contract test #sandbox' });
    expect(container.status).toBe(200);
    const status = await graph('graph.instagram.com', 'GET', `/${container.body.id}`, { fields: 'status_code' });
    expect(status.body).toEqual({ id: container.body.id, status_code: 'FINISHED' });
    const published = await graph<{ id: string }>('graph.instagram.com', 'POST', `/${me.body.id}/media_publish`, { creation_id: container.body.id });
    expect(published.body.id).toMatch(/^\d+$/);
    const media = await graph('graph.instagram.com', 'GET', `/${published.body.id}`, { fields: 'id,caption,media_type,permalink,timestamp,username' });
    expect(media.body).toMatchObject({ id: published.body.id, caption: 'From the contract test #sandbox', media_type: 'IMAGE', permalink: expect.stringMatching(/^https:\/\/www\.instagram\.com\/p\//), username: me.body.username });
    const listed = await graph<{ data: Array<{ id: string }> }>('graph.instagram.com', 'GET', `/${me.body.id}/media`);
    expect(listed.body.data.map((m) => m.id)).toEqual([published.body.id]);
    const comments = await graph('graph.instagram.com', 'GET', `/${published.body.id}/comments`);
    expect(comments.body).toEqual({ data: [] });
    // Publishing the same container again is refused in Graph's shape.
    const again = await graph<{ error: { code: number } }>('graph.instagram.com', 'POST', `/${me.body.id}/media_publish`, { creation_id: container.body.id });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: expect.any(String), code: expect.any(Number), fbtrace_id: expect.any(String) });
  });

  it('Facebook: a page post and a photo post, read back with their fields and in the feed', async () => {
    const pageId = (await graph<{ id: string }>('graph.facebook.com', 'GET', '/me', { fields: 'id' })).body.id;
    const post = await graph<{ id: string }>('graph.facebook.com', 'POST', `/${pageId}/feed`, { message: 'Page post from the contract test' });
    expect(post.body.id).toMatch(new RegExp(`^${pageId}_\\d+$`));
    // The same status twice in a row is Graph's duplicate refusal.
    const dup = await graph<{ error: { code: number } }>('graph.facebook.com', 'POST', `/${pageId}/feed`, { message: 'Page post from the contract test' });
    expect(dup.body.error.code).toBe(506);
    const photo = await graph<{ id: string; post_id: string }>('graph.facebook.com', 'POST', `/${pageId}/photos`, { url: 'https://example.com/photo.jpg', message: 'Photo from the contract test' });
    expect(photo.body).toEqual({ id: expect.stringMatching(/^\d+$/), post_id: expect.stringMatching(new RegExp(`^${pageId}_\\d+$`)) });
    // The photo itself as a multipart `source` part (the reference's other form of POST /{page-id}/photos).
    const form = new FormData();
    form.set('source', new Blob([fakeBytes('jpeg', 4096)], { type: 'image/jpeg' }), 'photo.jpg');
    form.set('message', 'Uploaded photo from the contract test');
    const upload = await fetch(`${origins.http['graph.facebook.com']}/v23.0/${pageId}/photos`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form });
    const uploaded = (await upload.json()) as { id: string; post_id: string };
    expect(uploaded).toEqual({ id: expect.stringMatching(/^\d+$/), post_id: expect.stringMatching(new RegExp(`^${pageId}_\\d+$`)) });
    const read = await graph('graph.facebook.com', 'GET', `/${post.body.id}`, { fields: 'message,created_time,permalink_url' });
    expect(read.body).toMatchObject({ id: post.body.id, message: 'Page post from the contract test', permalink_url: expect.stringMatching(/^https:\/\/www\.facebook\.com\//) });
    const feed = await graph<{ data: Array<{ id: string; message?: string }> }>('graph.facebook.com', 'GET', `/${pageId}/feed`, { fields: 'id,message' });
    expect(feed.body.data.map((p) => p.id)).toEqual([uploaded.post_id, photo.body.post_id, post.body.id]);
    const comments = await graph('graph.facebook.com', 'GET', `/${post.body.id}/comments`, { summary: 'true' });
    expect(comments.body).toMatchObject({ data: [], summary: { total_count: 0 } });
  });

  it('Threads: a text container, threads_publish, the post read back, listed and its replies', async () => {
    const me = await graph<{ id: string; username: string }>('graph.threads.net', 'GET', '/me', { fields: 'id,username' });
    expect(me.body.id).toMatch(/^2\d{15}$/);
    const container = await graph<{ id: string }>('graph.threads.net', 'POST', `/${me.body.id}/threads`, { media_type: 'TEXT', text: 'Thread from the contract test' });
    const published = await graph<{ id: string }>('graph.threads.net', 'POST', `/${me.body.id}/threads_publish`, { creation_id: container.body.id });
    expect(published.body.id).toMatch(/^\d+$/);
    const read = await graph('graph.threads.net', 'GET', `/${published.body.id}`, { fields: 'id,text,media_type,permalink,username' });
    expect(read.body).toMatchObject({ id: published.body.id, text: 'Thread from the contract test', media_type: 'TEXT_POST', username: me.body.username, permalink: expect.stringMatching(/^https:\/\/www\.threads\.(net|com)\//) });
    const listed = await graph<{ data: Array<{ id: string }> }>('graph.threads.net', 'GET', `/${me.body.id}/threads`);
    expect(listed.body.data.map((t) => t.id)).toEqual([published.body.id]);
    expect((await graph('graph.threads.net', 'GET', `/${published.body.id}/replies`)).body).toEqual({ data: [] });
  });

  it('deletes as Meta documents it: a page post and a Threads post go, a second delete is "does not exist"; Instagram Login media cannot be deleted', async () => {
    const pageId = (await graph<{ id: string }>('graph.facebook.com', 'GET', '/me', { fields: 'id' })).body.id;
    const post = await graph<{ id: string }>('graph.facebook.com', 'POST', `/${pageId}/feed`, { message: 'A page post to take down' });
    expect((await graph('graph.facebook.com', 'DELETE', `/${post.body.id}`)).body).toEqual({ success: true });
    const gone = await graph<{ error: { code: number; error_subcode: number } }>('graph.facebook.com', 'GET', `/${post.body.id}`, { fields: 'message' });
    expect(gone.status, JSON.stringify(gone.body)).toBe(400);
    expect(gone.body.error).toMatchObject({ code: 100, error_subcode: 33 });
    const feed = await graph<{ data: Array<{ id: string }> }>('graph.facebook.com', 'GET', `/${pageId}/feed`);
    expect(feed.body.data.map((p) => p.id)).not.toContain(post.body.id);
    const twice = await graph<{ error: { code: number; error_subcode: number } }>('graph.facebook.com', 'DELETE', `/${post.body.id}`);
    expect(twice.body.error).toMatchObject({ code: 100, error_subcode: 33 });

    const me = await graph<{ id: string }>('graph.threads.net', 'GET', '/me', { fields: 'id' });
    const container = await graph<{ id: string }>('graph.threads.net', 'POST', `/${me.body.id}/threads`, { media_type: 'TEXT', text: 'A thread to take down' });
    const published = await graph<{ id: string }>('graph.threads.net', 'POST', `/${me.body.id}/threads_publish`, { creation_id: container.body.id });
    expect((await graph('graph.threads.net', 'DELETE', `/${published.body.id}`)).body).toEqual({ success: true, deleted_id: published.body.id });
    expect((await graph<{ data: unknown[] }>('graph.threads.net', 'GET', `/${me.body.id}/threads`)).body.data).toEqual([]);

    const ig = await graph<{ id: string }>('graph.instagram.com', 'GET', '/me', { fields: 'id' });
    const igContainer = await graph<{ id: string }>('graph.instagram.com', 'POST', `/${ig.body.id}/media`, { image_url: 'https://example.com/photo.jpg', caption: 'Stays up' });
    const igMedia = await graph<{ id: string }>('graph.instagram.com', 'POST', `/${ig.body.id}/media_publish`, { creation_id: igContainer.body.id });
    const refused = await graph<{ error: { code: number; message: string } }>('graph.instagram.com', 'DELETE', `/${igMedia.body.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 100, message: expect.stringContaining('Facebook Login') });
    expect((await graph('graph.instagram.com', 'GET', `/${igMedia.body.id}`, { fields: 'id' })).body).toEqual({ id: igMedia.body.id });
  });

  it("answers unknown paths in Graph's error shape", async () => {
    const res = await graph<{ error: Record<string, unknown> }>('graph.facebook.com', 'GET', '/nonsense/edge/deeper');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 100, error_subcode: 33, type: 'GraphMethodException', fbtrace_id: expect.any(String) });
  });
});
