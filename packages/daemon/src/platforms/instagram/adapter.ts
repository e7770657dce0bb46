import type { InstagramOptions } from '@socialpub/core';
import type { PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError } from '../errors';
import { ContainerFlow, type ContainerApi, type Unit } from '../meta/container-flow';
import { DEFAULT_GRAPH_VERSION } from '../meta/graph-client';
import { pullUrl } from '../meta/pull-url';
import { MetaRun, newClient, requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { postMetaComment } from '../meta/post-comment';
import { withReplies } from '../shared/follow-ups/with-replies';
import { carouselParams, childParams, imageParams, reelParams, storyParams } from './container-options';
import { validateInstagram, type InstagramRules } from './validate';
import { validateInstagramOptions } from './validate-options';
import { instagramTokenRefresher } from './refresh-token';

export interface InstagramAdapterOptions extends MetaAdapterOptions, InstagramRules {
  /** Container status polling: every 20 s (the cadence Postiz found reliable), for up to 30 min (reels process for minutes). */
  pollIntervalMs?: number;
  maxPollMs?: number;
}

const LABEL = 'Instagram';

/**
 * Instagram content publishing (docs/reference/platforms.md §1): containers, polling, media_publish,
 * permalink. `feed` is one image, a single video (published as a Reel, as the platform
 * requires) or a carousel of 2-10; `story` is one container and one publish per media;
 * `reels` one video. Media is pulled from its public URL.
 */
export function createInstagramAdapter(options: InstagramAdapterOptions = {}): PlatformAdapter {
  const api: ContainerApi = {
    label: LABEL,
    createEdge: 'media',
    publishEdge: 'media_publish',
    limitEdge: 'content_publishing_limit',
    statusFields: 'status_code,status',
    readStatus: (b) => ({ code: typeof b.status_code === 'string' ? b.status_code : 'UNKNOWN', message: typeof b.status === 'string' ? b.status.replace(/^Error:\s*/, '') : null }),
    listEdge: (kind) => (kind === 'story' ? 'stories' : 'media'),
    listFields: 'id,caption,timestamp,permalink',
    textField: 'caption',
    pollIntervalMs: options.pollIntervalMs ?? 20_000,
    maxPollMs: options.maxPollMs ?? 30 * 60_000,
  };

  const open = (ctx: PublishContext) => {
    const viaFacebook = ctx.credentials.meta.login === 'facebook';
    const token = requireToken(ctx, LABEL);
    const client = newClient(ctx, options, viaFacebook ? 'graph.facebook.com' : 'graph.instagram.com', options.graphVersion ?? DEFAULT_GRAPH_VERSION, token);
    // Instagram Login tokens refresh (>= 24 h old); Facebook Login tokens cannot: re-authenticate.
    const refresher = viaFacebook ? null : instagramTokenRefresher;
    const run = new MetaRun(ctx, LABEL, client, refresher, options.http);
    return new ContainerFlow(run, api, ctx.credentials.accountId ?? 'me');
  };

  const adapter: PlatformAdapter = {
    platform: 'instagram',
    validate: (input) => [...validateInstagram(input, options), ...validateInstagramOptions(input)],

    async publish(ctx: PublishContext): Promise<PublishOutcome> {
      const flow = open(ctx);
      const media = ctx.media;
      const o = ctx.target.options as InstagramOptions;
      if (flow.fresh) await flow.checkQuota();
      if (ctx.target.type === 'story') {
        // Every story is a unit from the start, so a reconcile (which sees no media) knows how many there are.
        const units = media.map((_, i) => flow.unit(`story:${i}`, 'story', null));
        if (flow.fresh) await flow.save();
        let first: Unit | null = null;
        for (const [i, m] of media.entries()) {
          const unit = units[i] as Unit;
          await flow.ensureContainer(unit, { media_type: 'STORIES', [m.kind === 'video' ? 'video_url' : 'image_url']: pullUrl(ctx, LABEL, m, i), ...storyParams(o, i) });
          await flow.publish(unit);
          first ??= unit;
        }
        if (!first) throw new PermanentError('Instagram stories need at least one media item');
        return flow.outcome(first);
      }
      const caption = ctx.target.caption || null;
      const unit = flow.unit('post', 'post', caption);
      if (ctx.target.type === 'reels' || (media.length === 1 && media[0]?.kind === 'video')) {
        await flow.ensureContainer(unit, { media_type: 'REELS', video_url: pullUrl(ctx, LABEL, media[0], 0), caption: caption ?? undefined, ...reelParams(o, ctx.target.type === 'reels') });
      } else if (media.length === 1) {
        await flow.ensureContainer(unit, { image_url: pullUrl(ctx, LABEL, media[0], 0), caption: caption ?? undefined, ...imageParams(o) });
      } else {
        if (media.length < 2 || media.length > 10) throw new PermanentError(`Instagram carousels take 2 to 10 items; ${media.length} given`, { platformCode: '100/2207028' });
        const ids: string[] = [];
        for (const [i, m] of media.entries()) {
          const params = m.kind === 'video' ? { media_type: 'VIDEO', video_url: pullUrl(ctx, LABEL, m, i), is_carousel_item: true } : { image_url: pullUrl(ctx, LABEL, m, i), is_carousel_item: true, ...childParams(o, i, 'image') };
          ids.push(await flow.ensureChild(unit, i, media.length, params));
        }
        if (!unit.containerId) for (const id of ids) await flow.waitReady(unit, id);
        await flow.ensureContainer(unit, { media_type: 'CAROUSEL', children: ids.join(','), caption: caption ?? undefined, ...carouselParams(o) });
      }
      await flow.publish(unit);
      return flow.outcome(unit);
    },

    async reconcile(ctx: PublishContext): Promise<ReconcileResult> {
      const flow = open(ctx);
      // The publisher reconciles without media: the checkpoint names every unit.
      return flow.reconcile(ctx.target.type === 'story' ? Object.keys(flow.units).sort((a, b) => Number(a.split(':')[1]) - Number(b.split(':')[1])) : ['post']);
    },
  };
  // The first comment goes under the published media (stories take none).
  return withReplies(adapter, { comment: (ctx, post, text) => postMetaComment(open(ctx).run, post.postId, text) });
}
