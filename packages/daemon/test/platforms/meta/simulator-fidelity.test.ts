import { describe, expect, it } from 'vitest';
import { MetaSimulator } from '../../../src/platforms/meta/sim/simulator';
import { ManualClock } from '../../../src/util/clock';

/** Issue 15: Threads `me` is a numeric id per sandbox connection; reads of media, posts and comments, as Graph calls from Meta's docs. */

const A = 'sandbox_at_aaaa.s1';
const B = 'sandbox_at_bbbb.s2';

function meta() {
  const sim = new MetaSimulator({ clock: new ManualClock(), config: { imageProcessingMs: 0 } });
  const call = async (method: string, host: string, path: string, params: Record<string, string> = {}, token = A) => {
    const qs = new URLSearchParams({ ...params, access_token: token });
    const res = await sim.app.request(`/${host}/v1.0${path}?${qs}`, { method });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { id?: string } };
  };
  return { sim, call };
}

describe('Meta simulator reads', () => {
  it("answers Threads GET /me with a numeric id of the connection's own account, the same after a restart", async () => {
    const { call } = meta();
    const a = await call('GET', 'graph.threads.net', '/me', { fields: 'id,username' });
    expect(a.status).toBe(200);
    expect(a.body.id).toMatch(/^[0-9]{16}$/);
    const b = await call('GET', 'graph.threads.net', '/me', {}, B);
    expect(b.body.id).toMatch(/^[0-9]{16}$/);
    expect(b.body.id).not.toBe(a.body.id);
    expect((await meta().call('GET', 'graph.threads.net', '/me')).body.id).toBe(a.body.id);
  });

  it('reads back a published Threads post and its replies', async () => {
    const { call } = meta();
    const container = await call('POST', 'graph.threads.net', '/me/threads', { media_type: 'TEXT', text: 'hello threads' });
    const published = await call('POST', 'graph.threads.net', '/me/threads_publish', { creation_id: container.body.id! });
    expect(published.status).toBe(200);
    const read = await call('GET', 'graph.threads.net', `/${published.body.id}`, { fields: 'id,text' });
    expect(read.body).toMatchObject({ id: published.body.id, text: 'hello threads' });
    expect((await call('GET', 'graph.threads.net', `/${published.body.id}/replies`)).body).toEqual({ data: [] });
    // Another connection's token may not read this account's replies.
    expect((await call('GET', 'graph.threads.net', `/${published.body.id}/replies`, {}, B)).status).toBe(400);
  });

  it('reads back a Facebook page post and its comments with summary, and an Instagram media object and its comments', async () => {
    const { call } = meta();
    const post = await call('POST', 'graph.facebook.com', '/sandbox_page_aaaa/feed', { message: 'hi page' });
    expect(post.status).toBe(200);
    expect((await call('GET', 'graph.facebook.com', `/${post.body.id}`, { fields: 'id,message' })).body).toMatchObject({ id: post.body.id, message: 'hi page' });
    const comments = await call('GET', 'graph.facebook.com', `/${post.body.id}/comments`, { summary: 'true' });
    expect(comments.body).toEqual({ data: [], summary: { order: 'ranked', total_count: 0, can_comment: true } });

    const container = await call('POST', 'graph.facebook.com', '/sandbox_instagram_aaaa/media', { image_url: 'https://example.com/a.jpg', caption: 'hi ig' });
    const media = await call('POST', 'graph.facebook.com', '/sandbox_instagram_aaaa/media_publish', { creation_id: container.body.id! });
    expect(media.status).toBe(200);
    expect((await call('GET', 'graph.facebook.com', `/${media.body.id}`, { fields: 'id,caption' })).body).toMatchObject({ id: media.body.id, caption: 'hi ig' });
    expect((await call('GET', 'graph.facebook.com', `/${media.body.id}/comments`)).body).toEqual({ data: [] });
  });
});
