import type { ThreadsOptions } from '@socialpub/core';
import type { MediaItem, PlatformAdapter, PublishContext, PublishOutcome, ReconcileResult } from '../adapter';
import { PermanentError } from '../errors';
import { ContainerFlow, type ContainerApi, type Unit } from '../meta/container-flow';
import type { Params } from '../meta/graph-client';
import { pullUrl } from '../meta/pull-url';
import { MetaRun, newClient, requireToken, type MetaAdapterOptions } from '../meta/meta-run';
import { withReplies } from '../shared/follow-ups/with-replies';
import type { ReplyPoster } from '../shared/follow-ups/reply-poster';
import { validateThreads } from './validate';
import { validateThreadsOptions } from './validate-options';
import { threadsTokenRefresher } from './refresh-token';

export interface ThreadsAdapterOptions extends MetaAdapterOptions {
  /** Container status polling: every 10 s (Threads suggests ~30 s on average before publishing), for up to 10 min. */
  pollIntervalMs?: number;
  maxPollMs?: number;
}

const LABEL = 'Threads';

/** The post's own options as container parameters (docs/reference/platforms.md §12.4). */
function postParams(o: ThreadsOptions): Params {
  return { reply_control: o.reply_control, topic_tag: o.topic_tag, quote_post_id: o.quote_post_id };
}

/** A TEXT container's parameters; `textParams` go only on a TEXT container (link_attachment). */
function textContainer(text: string, params: Params, textParams: Params): Params {
  return { media_type: 'TEXT', text, ...textParams, ...params };
}

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
    const run = new MetaRun(ctx, LABEL, client, threadsTokenRefresher, options.http);
    return new ContainerFlow(run, api, ctx.credentials.accountId ?? 'me');
  };

  /**
   * Creates the unit's container (TEXT, IMAGE, VIDEO or a CAROUSEL of 2-20 children) and
   * publishes it once. `params` go on the unit's own container, never on carousel children:
   * the post's options (docs/reference/platforms.md §12.4), or a reply's `reply_to_id`
   * (§12.4.1); `textParams` only on a TEXT container (link_attachment).
   */
  async function publishUnit(ctx: PublishContext, flow: ContainerFlow, unit: Unit, media: MediaItem[], text: string | null, params: Params, textParams: Params = {}): Promise<void> {
    if (media.length === 0) {
      if (!text) throw new PermanentError('A Threads post without media needs text');
      await flow.ensureContainer(unit, textContainer(text, params, textParams), { publishNext: true });
      return flow.publish(unit, { needsNoProcessing: true });
    } else if (media.length === 1) {
      const m = media[0] as MediaItem;
      await flow.ensureContainer(unit, { media_type: m.kind === 'video' ? 'VIDEO' : 'IMAGE', [m.kind === 'video' ? 'video_url' : 'image_url']: pullUrl(ctx, LABEL, m, 0), text: text ?? undefined, ...params });
    } else {
      if (media.length > 20) throw new PermanentError(`Threads carousels take 2 to 20 items; ${media.length} given`);
      const ids: string[] = [];
      // Children one after another, as Postiz does: Threads rejects bursts of parallel container creation.
      for (const [i, m] of media.entries()) {
        ids.push(await flow.ensureChild(unit, i, media.length, { media_type: m.kind === 'video' ? 'VIDEO' : 'IMAGE', [m.kind === 'video' ? 'video_url' : 'image_url']: pullUrl(ctx, LABEL, m, i), is_carousel_item: true }));
      }
      if (!unit.containerId || unit.prepared) for (const id of ids) await flow.waitReady(unit, id);
      await flow.ensureContainer(unit, { media_type: 'CAROUSEL', children: ids.join(','), text: text ?? undefined, ...params });
    }
    await flow.publish(unit);
  }

  /** A reply is a container with reply_to_id, published like a post; its unit is checkpointed like the post's. */
  async function publishReply(ctx: PublishContext, key: string, parentId: string, media: MediaItem[], text: string | null, sending?: () => Promise<void>) {
    await sending?.();
    const flow = open(ctx);
    const unit = flow.unit(key, 'post', text);
    await publishUnit(ctx, flow, unit, media, text, { reply_to_id: parentId });
    const out = await flow.outcome(unit);
    return { id: out.postId, url: out.postUrl };
  }

  const followUps: ReplyPoster = {
    reply: (ctx, parentId, part) => publishReply(ctx, `part${part.part}`, parentId, part.media, part.caption || null, part.sending),
    // The container of a reply is checkpointed and Threads never publishes one twice: a lost answer is settled from its status.
    replyResumable: true,
    comment: (ctx, post, text) => publishReply(ctx, 'comment', post.postId, [], text),
  };

  return withReplies(
    {
      platform: 'threads',
      validate: (input) => [...validateThreads(input), ...validateThreadsOptions(input)],

      /**
       * A text post's container, made up to a minute before the due time
       * (publisher/preparer.ts), so that at the due time only threads_publish is left: one
       * call in a row instead of two. publish() takes it up only if it was made with the
       * parameters the post has then; otherwise it makes a new one (docs/platforms/threads.md).
       */
      async prepare(ctx: PublishContext): Promise<void> {
        const text = ctx.target.caption || null;
        if (ctx.media.length > 0 || !text) return;
        const flow = open(ctx);
        const unit = flow.unit('post', 'post', text);
        if (!flow.fresh || unit.containerId) return;
        const o = ctx.target.options as ThreadsOptions;
        await flow.prepareContainer(unit, textContainer(text, postParams(o), { link_attachment: o.link_attachment }));
      },

      async publish(ctx: PublishContext): Promise<PublishOutcome> {
        const flow = open(ctx);
        const text = ctx.target.caption || null;
        // A media container makes Threads fetch (and transcode) the media: refuse before making
        // one when the quota is used up. A text container costs nothing and expires unused, and
        // threads_publish enforces the quota itself (code 9, read back by the flow for its
        // window), so a text post skips this call: two calls in a row before the post, not three.
        if (flow.fresh && ctx.media.length > 0) await flow.checkQuota();
        const unit = flow.unit('post', 'post', text);
        const o = ctx.target.options as ThreadsOptions;
        await publishUnit(ctx, flow, unit, ctx.media, text, postParams(o), { link_attachment: o.link_attachment });
        return flow.outcome(unit);
      },

      async reconcile(ctx: PublishContext): Promise<ReconcileResult> {
        return open(ctx).reconcile(['post']);
      },
    },
    followUps,
  );
}
