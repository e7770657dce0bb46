import { describe, expect, it } from 'vitest';
import { API, errorOf } from '../http/harness';
import { eventsWorld } from './world';

interface Frame {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads SSE frames from a response body as they arrive. */
function frames(res: Response) {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const queue: Frame[] = [];
  return {
    async next(): Promise<Frame> {
      for (;;) {
        const q = queue.shift();
        if (q) return q;
        const cut = buffer.indexOf('\n\n');
        if (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const f: Frame = {};
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) f.comment = line.slice(1).trim();
            const m = /^(id|event|data): ?(.*)$/.exec(line);
            if (m) f[m[1] as 'id' | 'event' | 'data'] = m[2];
          }
          queue.push(f);
          continue;
        }
        const { value, done } = await reader.read();
        if (done) throw new Error('stream ended');
        buffer += decoder.decode(value, { stream: true });
      }
    },
    /** The next frame after the `live` marker that ends the catch-up, if it is still to come. */
    async afterLive(): Promise<Frame> {
      let f = await this.next();
      while (f.event === 'live') f = await this.next();
      return f;
    },
    /** The next `n` event frames (skipping ready, gap and heartbeats). */
    async events(n: number): Promise<Frame[]> {
      const out: Frame[] = [];
      while (out.length < n) {
        const f = await this.next();
        if (f.id) out.push(f);
      }
      return out;
    },
    cancel: () => reader.cancel(),
  };
}

const post = { caption: 'hello', platforms: ['twitter'], scheduled_for: '2026-12-26T10:00:00Z' };

describe('GET /events (SSE)', () => {
  it('streams new events live, then resumes with Last-Event-ID without missing or repeating one', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const controller = new AbortController();
    const res = await w.app.request(`${API}/events`, { headers: { 'X-API-Key': w.key }, signal: controller.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = frames(res);
    expect((await stream.next()).event).toBe('ready');
    const jobs: string[] = [];
    for (let i = 0; i < 3; i++) {
      jobs.push(((await (await w.call('POST', `${API}/content/publish`, { body: post })).json()) as { job_id: string }).job_id);
      w.hub.check();
    }
    const live = await stream.events(3);
    expect(live.map((f) => f.event)).toEqual(['post.accepted', 'post.accepted', 'post.accepted']);
    expect(live.map((f) => (JSON.parse(f.data!) as { job_id: string }).job_id)).toEqual(jobs);
    const lastSeen = live[1]!.id!;
    await stream.cancel();
    controller.abort();

    // More happens while disconnected.
    await w.call('DELETE', `${API}/content/scheduled?job_id=${jobs[0]}`);
    await w.call('POST', `${API}/content/publish`, { body: post });
    const resumed = frames(await w.app.request(`${API}/events`, { headers: { 'X-API-Key': w.key, 'Last-Event-ID': lastSeen } }));
    const got = await resumed.events(3);
    const all = w.db.prepare('SELECT id, type FROM events ORDER BY id').all() as { id: number; type: string }[];
    const after = all.filter((e) => e.id > Number(lastSeen.replace('evt_', '')));
    expect(got.map((f) => [f.id, f.event])).toEqual(after.map((e) => [`evt_${e.id}`, e.type]));
    expect(got.map((f) => f.event)).toEqual(['post.accepted', 'post.cancelled', 'post.accepted']);
    const body = JSON.parse(got[1]!.data!) as Record<string, unknown>;
    expect(body).toMatchObject({ id: got[1]!.id, type: 'post.cancelled', version: 1, job_id: jobs[0], data: { job_id: jobs[0] } });
    await resumed.cancel();
  });

  it('filters by type (exact or prefix.*) and by job, sends only the user\'s own events, and heartbeats on the clock', async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const other = w.addUser('other@example.com');
    w.connect(['twitter'], other.user.id);
    const a = ((await (await w.call('POST', `${API}/content/publish`, { body: { ...post, require_approval: true } })).json()) as { job_id: string }).job_id;
    await w.call('POST', `${API}/content/publish`, { body: { ...post, require_approval: true } });
    await w.call('POST', `${API}/content/publish`, { body: post, headers: { 'X-API-Key': other.key } });
    await w.call('POST', `${API}/content/scheduled/approve?job_id=${a}`);
    const byType = frames(await w.app.request(`${API}/events?since=0&types=post.pending_approval,post.approved`, { headers: { 'X-API-Key': w.key } }));
    expect((await byType.events(3)).map((f) => f.event)).toEqual(['post.pending_approval', 'post.pending_approval', 'post.approved']);
    await byType.cancel();
    const byJob = frames(await w.app.request(`${API}/events?since=evt_0&types=post.*&job_id=${a}`, { headers: { 'X-API-Key': w.key } }));
    const got = await byJob.events(3);
    expect(got.map((f) => f.event)).toEqual(['post.accepted', 'post.pending_approval', 'post.approved']);
    expect(got.every((f) => (JSON.parse(f.data!) as { job_id: string }).job_id === a)).toBe(true);
    // Idle: a heartbeat comment per interval of the clock (1 s in this world). The `live`
    // marker that ends the catch-up may still be on its way on a loaded machine: skip it.
    const pending = byJob.afterLive();
    await w.clock.advance(1_000);
    expect(await pending).toEqual({ comment: 'keep-alive' });
    await byJob.cancel();
    const theirs = frames(await w.app.request(`${API}/events?since=0`, { headers: { 'X-API-Key': other.key } }));
    const [only] = await theirs.events(1);
    expect(only?.event).toBe('post.accepted');
    const next = theirs.afterLive();
    await w.clock.advance(1_000);
    expect(await next).toEqual({ comment: 'keep-alive' }); // nothing of the first user's
    await theirs.cancel();
  });

  it("with_post carries the job's post: in ready, and as `event: post` after each batch of its events; unknown jobs 404, no job_id 400", async () => {
    const w = eventsWorld();
    w.connect(['twitter']);
    const a = ((await (await w.call('POST', `${API}/content/publish`, { body: { ...post, require_approval: true } })).json()) as { job_id: string }).job_id;
    const stream = frames(await w.app.request(`${API}/events?job_id=${a}&with_post=true`, { headers: { 'X-API-Key': w.key } }));
    const ready = await stream.next();
    expect(ready.event).toBe('ready');
    expect(ready.id).toBeUndefined();
    const first = JSON.parse(ready.data!) as { after: string; post: { job_id: string; status: string } };
    expect(first.after).toMatch(/^evt_\d+$/);
    expect(first.post).toMatchObject({ job_id: a, status: 'pending_approval' });
    // The post as GET /content/scheduled?job_id= shows it, field for field.
    const read = ((await (await w.call('GET', `${API}/content/scheduled?job_id=${a}`)).json()) as { post: unknown }).post;
    expect(first.post).toEqual(read);
    await w.call('POST', `${API}/content/scheduled/approve?job_id=${a}`);
    w.hub.check();
    const [approved] = await stream.events(1);
    expect(approved!.event).toBe('post.approved');
    const copy = await stream.afterLive();
    expect(copy.event).toBe('post');
    expect(copy.id).toBeUndefined();
    expect((JSON.parse(copy.data!) as { post: { status: string } }).post.status).toBe('scheduled');
    await stream.cancel();
    // Without with_post, the stream is as it was: no post in ready, no post frames.
    const plain = frames(await w.app.request(`${API}/events?since=evt_0&job_id=${a}`, { headers: { 'X-API-Key': w.key } }));
    expect(JSON.parse((await plain.next()).data!)).toEqual({ after: 'evt_0' });
    await plain.cancel();
    const unknown = await w.call('GET', `${API}/events?job_id=job_nosuchjob000000000&with_post=true`);
    expect(unknown.status).toBe(404);
    const noJob = await w.call('GET', `${API}/events?with_post=true`);
    expect(noJob.status).toBe(400);
    expect((await errorOf(noJob)).details?.[0]).toMatchObject({ path: 'with_post', message: 'needs job_id (the post of which job)' });
  });

  it('refuses unknown types and malformed ids with a 400', async () => {
    const w = eventsWorld();
    const bad = await w.call('GET', `${API}/events?types=post.accepted,post.exploded`);
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/unknown event type "post.exploded"/);
    const badId = await w.call('GET', `${API}/events`, { headers: { 'Last-Event-ID': 'yesterday' } });
    expect(badId.status).toBe(400);
    expect((await errorOf(badId)).details?.[0]?.path).toBe('Last-Event-ID');
    expect((await w.call('GET', `${API}/events`, { headers: { 'X-API-Key': '' } })).status).toBe(401);
  });
});
