import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSim, type Sim } from './harness';

let s: Sim;
beforeEach(async () => {
  s = await startSim();
});
afterEach(async () => s.close());

const IG = (path: string) => `${s.baseUrl('graph.instagram.com')}/v25.0${path}`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- simulator answers are read field by field
const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, any> });

describe('Meta simulators', () => {
  it('takes parameters from the query string, a form body or JSON, and the token from a header or a parameter', async () => {
    const a = await json(await fetch(IG('/ig1/media?image_url=https://x.test/a.jpg&access_token=sandbox_at_1'), { method: 'POST' }));
    const b = await json(await fetch(IG('/ig1/media'), { method: 'POST', body: new URLSearchParams({ image_url: 'https://x.test/b.jpg', access_token: 'sandbox_at_1' }) }));
    const c = await json(
      await fetch(IG('/ig1/media'), { method: 'POST', headers: { authorization: 'Bearer sandbox_at_1', 'content-type': 'application/json' }, body: JSON.stringify({ image_url: 'https://x.test/c.jpg' }) }),
    );
    expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
    expect(new Set([a.body.id, b.body.id, c.body.id]).size).toBe(3);
  });

  it('answers Graph error objects: no token, a bad token, an unknown path', async () => {
    const none = await json(await fetch(IG('/ig1/media'), { method: 'POST' }));
    expect(none).toMatchObject({ status: 400, body: { error: { code: 104, type: 'OAuthException', fbtrace_id: expect.any(String) } } });
    const bad = await json(await fetch(IG('/ig1/media?access_token=nope'), { method: 'POST' }));
    expect(bad.body.error).toMatchObject({ code: 190, message: 'Invalid OAuth access token - Cannot parse access token', is_transient: false });
    const path = await json(await fetch(IG('/ig1/nonsense?access_token=sandbox_at_1'), { method: 'POST' }));
    expect(path.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('moves a container IN_PROGRESS -> FINISHED, refuses an early publish with 9007/2207027, and expires it after 24 h', async () => {
    const { body } = await json(await fetch(IG('/ig1/media?image_url=https://x.test/a.jpg&access_token=sandbox_at_1'), { method: 'POST' }));
    const status = async () => (await json(await fetch(IG(`/${body.id}?fields=status_code&access_token=sandbox_at_1`)))).body.status_code;
    expect(await status()).toBe('IN_PROGRESS');
    const early = await json(await fetch(IG(`/ig1/media_publish?creation_id=${body.id}&access_token=sandbox_at_1`), { method: 'POST' }));
    expect(early).toMatchObject({ status: 400, body: { error: { code: 9007, error_subcode: 2207027, message: 'The media is not ready for publishing, please wait for a moment' } } });
    await s.clock.advance(3_000);
    expect(await status()).toBe('FINISHED');
    await s.clock.advance(86_400_000);
    expect(await status()).toBe('EXPIRED');
    const late = await json(await fetch(IG(`/ig1/media_publish?creation_id=${body.id}&access_token=sandbox_at_1`), { method: 'POST' }));
    expect(late.body.error).toMatchObject({ error_subcode: 2207020 });
    expect(s.state.posts).toHaveLength(0);
  });

  it('marks a published container PUBLISHED and refuses to publish it again', async () => {
    const { body } = await json(await fetch(IG('/ig1/media?image_url=https://x.test/a.jpg&access_token=sandbox_at_1'), { method: 'POST' }));
    await s.clock.advance(3_000);
    const first = await json(await fetch(IG(`/ig1/media_publish?creation_id=${body.id}&access_token=sandbox_at_1`), { method: 'POST' }));
    expect(first.status).toBe(200);
    expect((await json(await fetch(IG(`/${body.id}?fields=status_code&access_token=sandbox_at_1`)))).body.status_code).toBe('PUBLISHED');
    const again = await json(await fetch(IG(`/ig1/media_publish?creation_id=${body.id}&access_token=sandbox_at_1`), { method: 'POST' }));
    expect(again.status).toBe(400);
    expect(s.state.posts).toHaveLength(1);
  });

  it('delays an answer by injected latency on the simulator clock', async () => {
    s.state.faults.push({ path: '/content_publishing_limit', latencyMs: 5_000 });
    let done = false;
    const pending = fetch(IG('/ig1/content_publishing_limit?fields=quota_usage,config&access_token=sandbox_at_1')).then((r) => {
      done = true;
      return json(r);
    });
    while (s.clock.pending === 0) await new Promise((r) => setImmediate(r));
    await s.clock.advance(4_999);
    expect(done).toBe(false);
    await s.clock.advance(1);
    expect((await pending).body).toEqual({ data: [{ quota_usage: 0, config: { quota_total: 100, quota_duration: 86_400 } }] });
  });

  it('refreshes a long-lived token only once it is 24 h old', async () => {
    s.state.issueToken({ token: 'IGL-x', platform: 'instagram', kind: 'ig_user', accountId: 'ig1', expiresAt: s.clock.now() + 60 * 86_400_000, longLived: true });
    const url = `${s.baseUrl('graph.instagram.com')}/refresh_access_token?grant_type=ig_refresh_token&access_token=IGL-x`;
    const early = await json(await fetch(url));
    expect(early).toMatchObject({ status: 400, body: { error_type: 'OAuthException', error_message: 'The access token can only be refreshed once it is at least 24 hours old.' } });
    await s.clock.advance(86_400_000);
    const ok = await json(await fetch(url));
    expect(ok.body).toMatchObject({ token_type: 'bearer', expires_in: 5_184_000, access_token: expect.stringMatching(/^IGR/) });
  });

  it('records every request with tokens and secrets redacted', async () => {
    await fetch(`${s.baseUrl('graph.threads.net')}/access_token?grant_type=th_exchange_token&client_secret=shh&access_token=THQ-1`);
    expect(s.state.requests).toHaveLength(1);
    expect(s.state.requests[0]).toMatchObject({ method: 'GET', host: 'graph.threads.net', path: '/access_token', params: { grant_type: 'th_exchange_token', client_secret: '[redacted]' }, status: 400 });
    expect(JSON.stringify(s.state.requests)).not.toContain('THQ-1');
  });
});
