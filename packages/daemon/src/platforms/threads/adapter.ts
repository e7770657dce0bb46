import type { ThreadsOptions } from '@socialpub/core';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError } from '../errors';
import { ContainerFlow, type ContainerApi } from '../meta/container-flow';
import { pullUrl } from '../meta/pull-url';
import { MetaRun, newClient, requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { refreshThreadsToken } from '../meta/token-endpoints';
import { validateThreads } from './validate';
import { validateThreadsOptions } from './validate-options';

export interface ThreadsAdapterOptions extends MetaAdapterOptions {
  /** Container status polling: every 10 s (Threads suggests ~30 s on average before publishing), for up to 10 min. */
  pollIntervalMs?: number;
  maxPollMs?: number;
}

const LABEL = 'Threads';

/**
 * Threads publishing (docs/reference/platforms.md §4): a TEXT, IMAGE or VIDEO container, or a carousel
 * of 2-20 children; poll; threads_publish; permalink. Threads only pulls media from
 * public URLs.
 */
export function createThreadsAdapter(options: ThreadsAdapterOptions = {}): PlatformAdapter {
  const api: ContainerApi = {
    label: LABEL,
    createEdge: 'threads',
    publishEdge: 'threads_publish',
    limitEdge: 'threads_publishing_limit',
    statusFields: 'status,error_message',
    readStatus: (b) => ({ code: typeof b.status === 'string' ? b.status : 'UNKNOWN', message: typeof b.error_message === 'string' ? b.error_message : null }),
    listEdge: () => 'threads',
    listFields: 'id,text,timestamp,permalink',
    textField: 'text',
    pollIntervalMs: options.pollIntervalMs ?? 10_000,
    maxPollMs: options.maxPollMs ?? 10 * 60_000,
  };

  const open = (ctx: PublishContext) => {
    const token = requireToken(ctx, LABEL);
    // Threads documents the token as the access_token parameter.
    const client = newClient(ctx, options, 'graph.threads.net', options.threadsVersion ?? 'v1.0', token, 'param');
    const run = new MetaRun(ctx, LABEL, client, (c, t) => refreshThreadsToken({ baseUrl: c.baseUrl('graph.threads.net'), token: t, signal: c.signal, http: options.http }));
    return new ContainerFlow(run, api, ctx.credentials.accountId ?? 'me');
  };

  return {
    platform: 'threads',
    validate: (input) => [...validateThreads(input), ...validateThreadsOptions(input)],

    async publish(ctx: PublishContext): Promise<PublishOutcome> {
      const flow = open(ctx);
      const media = ctx.media;
      const text = ctx.target.caption || null;
      if (flow.fresh) await flow.checkQuota();
      const unit = flow.unit('post', 'post', text);
      // The post's own container carries the options (docs/reference/platforms.md §12.4); carousel children never do.
      const o = ctx.target.options as ThreadsOptions;
      const post = { reply_control: o.reply_control, topic_tag: o.topic_tag, quote_post_id: o.quote_post_id };
      if (media.length === 0) {
        if (!text) throw new PermanentError('A Threads post without media needs text');
        await flow.ensureContainer(unit, { media_type: 'TEXT', text, link_attachment: o.link_attachment, ...post });
      } else if (media.length === 1) {
        const m = media[0] as MediaItem;
        await flow.ensureContainer(unit, { media_type: m.kind === 'video' ? 'VIDEO' : 'IMAGE', [m.kind === 'video' ? 'video_url' : 'image_url']: pullUrl(ctx, LABEL, m, 0), text: text ?? undefined, ...post });
      } else {
        if (media.length > 20) throw new PermanentError(`Threads carousels take 2 to 20 items; ${media.length} given`);
        const ids: string[] = [];
        // Children one after another, as Postiz does: Threads rejects bursts of parallel container creation.
        for (const [i, m] of media.entries()) {
          ids.push(await flow.ensureChild(unit, i, media.length, { media_type: m.kind === 'video' ? 'VIDEO' : 'IMAGE', [m.kind === 'video' ? 'video_url' : 'image_url']: pullUrl(ctx, LABEL, m, i), is_carousel_item: true }));
        }
        if (!unit.containerId) for (const id of ids) await flow.waitReady(unit, id);
        await flow.ensureContainer(unit, { media_type: 'CAROUSEL', children: ids.join(','), text: text ?? undefined, ...post });
      }
      await flow.publish(unit);
      return flow.outcome(unit);
    },

    async reconcile(ctx: PublishContext): Promise<ReconcileResult> {
      return open(ctx).reconcile(['post']);
    },
  };
}
