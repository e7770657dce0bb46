import { AtpAgent, RichText } from '@atproto/api';
import { describe, expect, it } from 'vitest';
import { buildFacets } from '../../src/platforms/bluesky/facets';
import { SANDBOX_APP_PASSWORD } from '../../src/platforms/bluesky/sim/simulator';
import { ManualClock } from '../../src/util/clock';
import { useCleanups } from '../support/cleanups';
import { useBlueskySimulator } from '../platforms/bluesky/use-bluesky-simulator';

/**
 * Issue 26: Bluesky's own client, `@atproto/api` (unmodified, the exact version in
 * package.json), against the Bluesky simulator at its own loopback origin, as
 * docs/platforms/bluesky.md shows: `AtpAgent` with the simulator as its service.
 */

const defer = useCleanups();
const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(200, 3)]);

async function world() {
  const clock = new ManualClock(T0);
  const w = await useBlueskySimulator(defer, { clock });
  const agent = new AtpAgent({ service: w.pdsUrl });
  return { ...w, clock, agent };
}

describe('@atproto/api against the Bluesky simulator', () => {
  it('logs in with the sandbox app password, creating the account on first use, and refuses a wrong one with AuthenticationRequired', async () => {
    const { agent, pdsUrl, sim } = await world();
    const res = await agent.login({ identifier: 'alice.bsky.social', password: SANDBOX_APP_PASSWORD });
    expect(res.data.handle).toBe('alice.bsky.social');
    expect(res.data.did).toMatch(/^did:plc:[a-z2-7]{24}$/);
    expect(agent.session?.did).toBe(res.data.did);
    // The same identifier opens the same account again.
    const again = new AtpAgent({ service: pdsUrl });
    expect((await again.login({ identifier: 'alice.bsky.social', password: SANDBOX_APP_PASSWORD })).data.did).toBe(res.data.did);
    expect(sim.accounts()).toHaveLength(1);

    const wrong = new AtpAgent({ service: pdsUrl });
    const err = await wrong.login({ identifier: 'alice.bsky.social', password: 'hunter2' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 401, error: 'AuthenticationRequired', message: 'Invalid identifier or password' });
    expect(wrong.hasSession).toBe(false);
  });

  it('posts rich text with detectFacets, images with alt text, a reply; reads it back with getPost and deletes it with deletePost', async () => {
    const { agent, pdsUrl, sim } = await world();
    // bob exists, so the mention resolves.
    await new AtpAgent({ service: pdsUrl }).login({ identifier: 'bob.bsky.social', password: SANDBOX_APP_PASSWORD });
    await agent.login({ identifier: 'alice.bsky.social', password: SANDBOX_APP_PASSWORD });

    const rt = new RichText({ text: 'Café ☕ with @bob.bsky.social 🎉 see https://example.com/menu #café' });
    await rt.detectFacets(agent);
    const features = rt.facets!.map((f) => f.features[0]!.$type);
    expect(features).toEqual(['app.bsky.richtext.facet#mention', 'app.bsky.richtext.facet#link', 'app.bsky.richtext.facet#tag']);

    const up1 = await agent.uploadBlob(PNG, { encoding: 'image/png' });
    const up2 = await agent.uploadBlob(Buffer.concat([PNG, Buffer.from([1])]), { encoding: 'image/png' });
    expect(up1.data.blob.size).toBe(PNG.length);
    const post = await agent.post({
      text: rt.text,
      facets: rt.facets,
      langs: ['en', 'fr'],
      embed: { $type: 'app.bsky.embed.images', images: [{ image: up1.data.blob, alt: 'A cup of coffee' }, { image: up2.data.blob, alt: 'The menu' }] },
    });
    expect(post.uri).toMatch(new RegExp(`^at://${agent.session!.did}/app\\.bsky\\.feed\\.post/[2-7a-j][2-7a-z]{12}$`));

    const reply = await agent.post({ text: 'and a reply', reply: { root: { uri: post.uri, cid: post.cid }, parent: { uri: post.uri, cid: post.cid } } });
    const rkey = post.uri.split('/').pop()!;
    const got = await agent.getPost({ repo: agent.session!.did, rkey });
    expect(got.uri).toBe(post.uri);
    expect(got.cid).toBe(post.cid);
    expect(got.value.text).toBe(rt.text);
    const images = (got.value.embed as { images: Array<{ alt: string; image: { mimeType: string; size: number } }> }).images;
    expect(images.map((i) => i.alt)).toEqual(['A cup of coffee', 'The menu']);
    expect(images[0]!.image.mimeType).toBe('image/png');
    expect(got.value.facets).toEqual(JSON.parse(JSON.stringify(rt.facets)));
    const replyRec = sim.record(reply.uri)!;
    expect(replyRec.value.reply).toEqual({ root: { uri: post.uri, cid: post.cid }, parent: { uri: post.uri, cid: post.cid } });

    await agent.deletePost(post.uri);
    const gone = await agent.getPost({ repo: agent.session!.did, rkey }).catch((e: unknown) => e);
    expect(gone).toMatchObject({ status: 400, error: 'RecordNotFound' });
    expect(sim.log.posts.find((p) => p.postId === post.uri)!.removedAt).toBe(T0);
  });

  it('refuses a 301-grapheme post with Bluesky\'s InvalidRequest, and takes 300 (emoji count one each)', async () => {
    const { agent } = await world();
    await agent.login({ identifier: 'carol.example.com', password: SANDBOX_APP_PASSWORD });
    const err = await agent.post({ text: 'a'.repeat(301) }).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 400, error: 'InvalidRequest', message: 'Invalid app.bsky.feed.post record: Record/text must not be longer than 300 graphemes' });
    // 300 family emoji are 300 graphemes (and 2,850 bytes): accepted.
    const ok = await agent.post({ text: '👩‍👧'.repeat(250) + 'é'.repeat(50) });
    expect(ok.uri).toContain('app.bsky.feed.post');
  });

  it('computes the same facets (UTF-8 byte offsets) as @atproto/api for text with emoji and accents', async () => {
    const { agent, pdsUrl } = await world();
    await new AtpAgent({ service: pdsUrl }).login({ identifier: 'zoë.example.com'.normalize('NFD').replace(/\p{M}/gu, ''), password: SANDBOX_APP_PASSWORD });
    await agent.login({ identifier: 'dave.bsky.social', password: SANDBOX_APP_PASSWORD });
    const texts = [
      'Crème brûlée 🍮 @zoe.example.com et https://exemple.fr/crème #dessert',
      '👨‍👩‍👧‍👦 familles: https://example.com/a?b=c, puis #été! et @nobody.invalid.example',
      '🇫🇷🇩🇪 #drapeaux (https://example.org/x) — ñandú @dave.bsky.social.',
    ];
    for (const text of texts) {
      const rt = new RichText({ text });
      await rt.detectFacets(agent);
      const ours = await buildFacets(text, async (handle) => {
        try {
          return (await agent.resolveHandle({ handle })).data.did;
        } catch {
          return null;
        }
      });
      // @atproto/api sets the facet's own $type on some facets only; the ranges and features are what count.
      const strip = (fs: unknown[]) => fs.map((f) => ({ index: (f as { index: unknown }).index, features: (f as { features: unknown }).features }));
      expect(strip(ours), text).toEqual(strip(JSON.parse(JSON.stringify(rt.facets ?? [])) as unknown[]));
      // Each facet's bytes are exactly the annotated text.
      const bytes = Buffer.from(text, 'utf8');
      for (const f of ours) {
        const slice = bytes.subarray(f.index.byteStart, f.index.byteEnd).toString('utf8');
        const feat = f.features[0]!;
        if (feat.$type === 'app.bsky.richtext.facet#link') expect(slice).toBe(feat.uri);
        if (feat.$type === 'app.bsky.richtext.facet#tag') expect(slice).toBe(`#${feat.tag}`);
        if (feat.$type === 'app.bsky.richtext.facet#mention') expect(slice.startsWith('@')).toBe(true);
      }
    }
  });
});
