import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { openAdmin } from '../../src/admin';
import { createBlueskySimulator, SANDBOX_APP_PASSWORD } from '../../src/platforms/bluesky/sim/simulator';
import { createMastodonSimulator, MASTODON_HOST } from '../../src/platforms/mastodon/sim/simulator';
import { openDatabase } from '../../src/store/database';
import type { NewInboxItem } from '../../src/store/inbox';
import { createStore } from '../../src/store/store';
import { systemClock } from '../../src/util/clock';
import { SecretBox } from '../../src/util/secrets';
import { crashDir, killHard, serveSimulators, startReady, stopWhen, wait } from './crash-setup';

const CHILD = fileURLToPath(new URL('./inbox-child.ts', import.meta.url));
const dir = crashDir('socialpub-inbox-crash-');
const BSKY = 'bsky.social';

// The crash test the posts have (mastodon-crash.test.ts), for replies: a burst of replies to
// comments on Mastodon and Bluesky, the sending process SIGKILLed each time a network has made
// a reply and before its answer arrived; restarted, it sends the rest. 0 doubled, 0 lost.
describe('inbox replies through SIGKILLs', () => {
  it('killed after the network made a reply and before the daemon recorded it, makes every reply exactly once', { timeout: 120_000 }, async () => {
    // The simulators live in this process, so what was made survives the sender's death.
    const masto = createMastodonSimulator({ clock: systemClock, processingMs: 0 });
    const bsky = createBlueskySimulator({ clock: systemClock });
    const json = async (url: string, init: RequestInit = {}) => (await (await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...(init.headers as Record<string, string>) } })).json()) as Record<string, unknown>;

    // Our replies made so far on both networks (statuses and records whose text starts "reply ").
    let ourMastodon = '';
    let ourDid = '';
    const made = () =>
      masto.statuses().filter((s) => s.accountId === ourMastodon && s.text.startsWith('reply ')).length +
      bsky.log.posts.filter((p) => p.accountId === ourDid && String(p.body.text).startsWith('reply ')).length;
    let hold = false;
    let held: () => void = () => {};
    const root = new Hono();
    for (const host of [MASTODON_HOST, BSKY]) {
      root.use(`/${host}/*`, async (_c, next) => {
        const before = made();
        await next();
        if (hold && made() > before) {
          hold = false;
          held();
          await new Promise(() => {}); // made, never answered: the sender is killed while waiting
        }
      });
    }
    root.route(`/${MASTODON_HOST}`, masto.app);
    root.route(`/${BSKY}`, bsky.pds);
    const server = await serveSimulators(root);
    const sim = (host: string) => `${server.url}/${host}`;

    // The account and its sandbox connections, as `socialpub connect --sandbox` makes them.
    const admin = openAdmin(dir, { clock: systemClock });
    admin.createKey({ email: 'me@example.com' });
    admin.addSandboxConnection('mastodon', { email: 'me@example.com' });
    admin.addSandboxConnection('bluesky', { email: 'me@example.com' });
    admin.close?.();
    const db = openDatabase(join(dir, 'socialpub.db'));
    const store = createStore(db, { secrets: SecretBox.fromKeyFile(join(dir, 'secret.key')), clock: systemClock });
    const userId = db.prepare('SELECT id FROM users').pluck().get() as string;
    const creds = (p: 'mastodon' | 'bluesky') => store.credentials.credentialsFor(userId, p)!;
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });

    // Our posts, made by the connections' accounts.
    const mToken = creds('mastodon').secrets.access_token!;
    ourMastodon = String((await json(`${sim(MASTODON_HOST)}/api/v1/accounts/verify_credentials`, { headers: auth(mToken) })).id);
    const ourStatus = String((await json(`${sim(MASTODON_HOST)}/api/v1/statuses`, { method: 'POST', headers: auth(mToken), body: JSON.stringify({ status: 'Our post' }) })).id);
    const bToken = creds('bluesky').secrets.access_token!;
    ourDid = String((await json(`${sim(BSKY)}/xrpc/com.atproto.server.getSession`, { headers: auth(bToken) })).did);
    // The times written here are only stored and ordered, never compared with the daemons' clocks: one fixed instant (far ahead, so no retention of the daemons' reaches it).
    const now = Date.UTC(2036, 0, 1, 9);
    const record = (text: string, reply?: { uri: string; cid: string }) => ({ $type: 'app.bsky.feed.post', text, createdAt: new Date(now).toISOString(), ...(reply ? { reply: { root: reply, parent: reply } } : {}) });
    const ourPost = (await json(`${sim(BSKY)}/xrpc/com.atproto.repo.createRecord`, { method: 'POST', headers: auth(bToken), body: JSON.stringify({ repo: ourDid, collection: 'app.bsky.feed.post', record: record('Our post') }) })) as { uri: string; cid: string };

    // Readers' comments: three on each network, from other accounts.
    const mReader = 'sandbox-reader-token'; // the simulator's test tokens act as its default account, not a connection's
    const mComments: string[] = [];
    for (let i = 1; i <= 3; i++) mComments.push(String((await json(`${sim(MASTODON_HOST)}/api/v1/statuses`, { method: 'POST', headers: auth(mReader), body: JSON.stringify({ status: `question ${i}`, in_reply_to_id: ourStatus }) })).id));
    const fan = (await json(`${sim(BSKY)}/xrpc/com.atproto.server.createSession`, { method: 'POST', body: JSON.stringify({ identifier: 'fan.bsky.social', password: SANDBOX_APP_PASSWORD }) })) as { accessJwt: string; did: string };
    const bComments: string[] = [];
    for (let i = 1; i <= 3; i++) {
      const r = (await json(`${sim(BSKY)}/xrpc/com.atproto.repo.createRecord`, { method: 'POST', headers: auth(fan.accessJwt), body: JSON.stringify({ repo: fan.did, collection: 'app.bsky.feed.post', record: record(`question ${i}`, ourPost) }) })) as { uri: string };
      bComments.push(r.uri);
    }

    // The post, its published targets, the comments as inbox items and a burst of six replies, queued.
    db.prepare("INSERT INTO jobs (id, user_id, caption, platforms, sort_at, created_at, updated_at) VALUES ('job_crash', ?, 'Our post', '[\"mastodon\",\"bluesky\"]', ?, ?, ?)").run(userId, now, now, now);
    const item = (platform: 'mastodon' | 'bluesky', postId: string, commentId: string, n: number): NewInboxItem => ({
      id: `inb_${platform}${n}`, userId, jobId: 'job_crash', targetId: `tgt_${platform}`, connectionId: creds(platform).connectionId, platform, postId, commentId,
      inReplyTo: postId, thread: [postId], authorName: null, authorHandle: 'reader', authorUrl: null, text: `question ${n}`, url: null, createdAt: now,
    });
    store.inbox.addItems([...mComments.map((c, i) => item('mastodon', ourStatus, c, i + 1)), ...bComments.map((c, i) => item('bluesky', ourPost.uri, c, i + 1))], now);
    const replies = [...mComments.map((_c, i) => `inb_mastodon${i + 1}`), ...bComments.map((_c, i) => `inb_bluesky${i + 1}`)];
    replies.forEach((itemId, i) => store.inbox.addReply({ id: `rpl_${i}`, itemId, userId, text: `reply ${itemId}`, state: 'queued', source: 'api' }, now + i));

    // Killed four times, each time a network had made the next reply and the sender waited for its answer.
    let kills = 0;
    for (let k = 0; k < 4; k++) {
      const arrived = new Promise<void>((resolve) => (held = resolve));
      hold = true;
      const run = await startReady(CHILD, [dir, server.url]);
      await Promise.race([arrived, wait(30_000).then(() => Promise.reject(new Error(`reply ${k + 1} never came`)))]);
      await killHard(run);
      kills++;
    }
    expect(made()).toBe(4);
    const run = await startReady(CHILD, [dir, server.url]);
    const states = db.prepare('SELECT state FROM inbox_replies ORDER BY id').pluck();
    await stopWhen(run, () => (states.all() as string[]).every((s) => s === 'sent'), 30_000);

    expect(states.all()).toEqual(replies.map(() => 'sent'));
    // Each comment answered once (0 doubled), every one answered (0 lost), each under its comment.
    const mine = masto.statuses().filter((s) => s.accountId === ourMastodon && s.text.startsWith('reply '));
    expect(mine.map((s) => [s.inReplyToId, s.text]).sort()).toEqual(mComments.map((c, i) => [c, `reply inb_mastodon${i + 1}`]).sort());
    const ours = bsky.log.posts.filter((p) => p.accountId === ourDid && String(p.body.text).startsWith('reply '));
    expect(ours.map((p) => [p.body.in_reply_to, p.body.text]).sort()).toEqual(bComments.map((c, i) => [c, `reply inb_bluesky${i + 1}`]).sort());
    expect(db.prepare("SELECT count(*) FROM events WHERE type = 'comment.replied'").pluck().get()).toBe(6);
    console.log('inbox crash test:', JSON.stringify({ kills, replies: mine.length + ours.length, doubled: mine.length + ours.length - 6 }));
    db.close();
    server.close();
  });
});
