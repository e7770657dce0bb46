import { hashtags, mentions, codePoints } from '../../meta/text-rules';
import { checkInstagramOptions, instagramOptionsOf } from './option-rules';
import { checkChildren, containerStatus, createContainer, getContainer, publishingLimitRow, type SimContainer } from '../../meta/sim/containers';
import { bool, DAY_MS, fail, graphTime, isPublicHttpUrl, listEdge, pickFields, type MetaSimState, type SimAccount, type SimRequest } from '../../meta/sim/core';

/**
 * graph.instagram.com (Instagram Login) and the Instagram edges of graph.facebook.com
 * (Facebook Login), strict per docs/reference/platforms.md §1 and §9: containers IN_PROGRESS ->
 * FINISHED | ERROR, EXPIRED after 24 h, PUBLISHED; 9007/2207027 when publishing early;
 * the publishing quota on media_publish; Graph error bodies.
 */
export function instagramRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (!id || extra !== undefined) return undefined;
  const obj = sim.objects.get(id);
  if (!edge && req.method === 'GET') {
    if (obj?._type === 'container' && obj.platform === 'instagram') return readContainer(req, sim, obj as SimContainer);
    if (obj?._type === 'ig_media') {
      sim.authenticate(req, 'instagram', String(obj.accountId));
      return pickFields(obj, req.params.fields, ['id']);
    }
    const acc = sim.accounts.get(id);
    if (acc?.platform === 'instagram' || (id === 'me' && req.host === 'graph.instagram.com')) {
      const account = sim.pathAccount(req, id, 'instagram', 'ig_user');
      const view = { id: account.id, user_id: account.id, username: account.username, name: account.name, account_type: 'BUSINESS' };
      return pickFields(view, req.params.fields, ['id']);
    }
    return undefined;
  }
  const isIgEdge = ['media', 'media_publish', 'content_publishing_limit', 'stories'].includes(edge ?? '');
  if (!isIgEdge) return undefined;
  if (req.host === 'graph.facebook.com' && sim.accounts.get(id)?.platform === 'facebook') return undefined;
  const account = sim.pathAccount(req, id, 'instagram', 'ig_user');
  if (edge === 'media' && req.method === 'POST') return createMedia(req, sim, account);
  if (edge === 'media_publish' && req.method === 'POST') return publish(req, sim, account);
  if (edge === 'content_publishing_limit' && req.method === 'GET') {
    return { data: [publishingLimitRow(sim, account, 'instagram', req.params.fields ?? 'quota_usage')] };
  }
  if ((edge === 'media' || edge === 'stories') && req.method === 'GET') {
    const product = edge === 'stories' ? ['STORY'] : ['FEED', 'REELS'];
    const since = edge === 'stories' ? sim.clock.now() - DAY_MS : 0;
    return listEdge(sim, req, (o) => o._type === 'ig_media' && o.accountId === account.id && product.includes(String(o.media_product_type)) && Number(o.createdAt) > since, ['id']);
  }
  return fail(100, `Unsupported ${req.method} request.`, { subcode: 33 });
}

function readContainer(req: SimRequest, sim: MetaSimState, c: SimContainer): unknown {
  sim.actingFor(req, c.accountId, 'instagram', 'ig_user');
  const code = containerStatus(sim, c);
  const text: Record<typeof code, string> = {
    IN_PROGRESS: 'In Progress: Media is still being processed.',
    FINISHED: 'Finished: Media has been uploaded and it is complete.',
    ERROR: `Error: ${c.error ?? 'Unknown error'}`,
    EXPIRED: 'Expired: The container was not published within 24 hours.',
    PUBLISHED: 'Published: Media has been published.',
  };
  return pickFields({ id: c.id, status_code: code, status: text[code] }, req.params.fields, ['id']);
}

const CAPTION_MAX = 2200;

function createMedia(req: SimRequest, sim: MetaSimState, account: SimAccount): unknown {
  const p = req.params;
  const type = p.media_type;
  const carouselItem = bool(p.is_carousel_item, false);
  if (p.upload_type === 'resumable' && req.host === 'graph.instagram.com') fail(100, 'Resumable upload is not available with Instagram Login.', { subcode: 2207023 });
  if (p.caption !== undefined) {
    if (type === 'STORIES') fail(100, 'Param caption is not supported for stories.');
    if (carouselItem) fail(100, 'Param caption is not supported on carousel items.');
    if (codePoints(p.caption) > CAPTION_MAX) fail(36004, 'The caption is too long.', { subcode: 2207010, userMsg: `The caption may have at most ${CAPTION_MAX} characters.` });
    if (hashtags(p.caption).length > 30) fail(36004, 'The caption has too many hashtags.', { subcode: 2207010 });
    if (mentions(p.caption).length > 20) fail(100, 'The caption has more than 20 @ tags.', { subcode: 2207040 });
  }
  if (p.is_ai_generated !== undefined && carouselItem) fail(100, 'Param is_ai_generated is only allowed on the carousel container.');
  checkInstagramOptions(p, { type: type ?? 'IMAGE', carouselItem });
  if (type === 'CAROUSEL') {
    const children = checkChildren(sim, p.children, 'instagram', account.id, 10);
    return { id: createContainer(sim, { platform: 'instagram', accountId: account.id, mediaType: 'CAROUSEL', params: p, isCarouselItem: false, children, video: false }).id };
  }
  let video: boolean;
  if (type === undefined || type === 'IMAGE') {
    if (!isPublicHttpUrl(p.image_url)) mediaUrlError(p.image_url, 'image_url');
    video = false;
  } else if (type === 'VIDEO') {
    if (!carouselItem) fail(100, 'The media_type VIDEO is no longer supported for feed videos; use REELS.', { subcode: 2207023 });
    if (!isPublicHttpUrl(p.video_url)) mediaUrlError(p.video_url, 'video_url');
    video = true;
  } else if (type === 'REELS') {
    if (carouselItem) fail(100, 'Reels cannot be carousel items.', { subcode: 2207023 });
    if (!isPublicHttpUrl(p.video_url)) mediaUrlError(p.video_url, 'video_url');
    video = true;
  } else if (type === 'STORIES') {
    if (p.image_url !== undefined === (p.video_url !== undefined)) fail(100, 'A story needs exactly one of image_url or video_url.');
    const url = p.image_url ?? p.video_url;
    if (!isPublicHttpUrl(url)) mediaUrlError(url, p.image_url ? 'image_url' : 'video_url');
    video = p.video_url !== undefined;
  } else {
    return fail(100, `The media type ${type} is unknown.`, { subcode: 2207023 });
  }
  const c = createContainer(sim, { platform: 'instagram', accountId: account.id, mediaType: type ?? 'IMAGE', params: p, isCarouselItem: carouselItem, children: [], video });
  return { id: c.id };
}

function mediaUrlError(url: string | undefined, name: string): never {
  if (!url) fail(100, `The parameter ${name} is required.`);
  return fail(9004, 'The media could not be fetched from this URI. Make sure it is a public, US-ASCII http(s) URL.', { subcode: 2207052 });
}

function publish(req: SimRequest, sim: MetaSimState, account: SimAccount): unknown {
  const c = getContainer(sim, req.params.creation_id, 'instagram', account.id);
  if (c.isCarouselItem) fail(100, 'A carousel item cannot be published on its own; publish the carousel container.', { subcode: 2207023 });
  const status = containerStatus(sim, c);
  if (status === 'IN_PROGRESS') fail(9007, 'The media is not ready for publishing, please wait for a moment', { subcode: 2207027, userMsg: 'Media ID is not available' });
  if (status === 'ERROR') fail(-1, `Create media failed: ${c.error}`, { subcode: 2207032 });
  if (status === 'EXPIRED') fail(-2, 'The media has expired. Create a new container.', { subcode: 2207020 });
  if (status === 'PUBLISHED') fail(100, 'This media container has already been published.', { subcode: 2207006 });
  if (sim.usage(account.publishes) >= sim.config.quota.instagram) {
    fail(9, 'Application request limit reached', { subcode: 2207042, userMsg: 'You have reached the maximum number of posts that can be published in a 24-hour period.' });
  }
  const now = sim.clock.now();
  account.publishes.push(now);
  const product = c.mediaType === 'STORIES' ? 'STORY' : c.mediaType === 'REELS' ? 'REELS' : 'FEED';
  const mediaType = c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.mediaType === 'STORIES' ? (c.params.video_url ? 'VIDEO' : 'IMAGE') : c.mediaType === 'REELS' ? 'VIDEO' : 'IMAGE';
  const id = sim.newId('18');
  const shortcode = sim.shortcode();
  const permalink =
    product === 'STORY' ? `https://www.instagram.com/stories/${account.username}/${id}/` : product === 'REELS' ? `https://www.instagram.com/reel/${shortcode}/` : `https://www.instagram.com/p/${shortcode}/`;
  const media = {
    _type: 'ig_media',
    id,
    accountId: account.id,
    caption: c.params.caption,
    media_type: mediaType,
    media_product_type: product,
    timestamp: graphTime(now),
    permalink,
    shortcode,
    username: account.username,
    createdAt: now,
    containerId: c.id,
  };
  sim.objects.set(id, media);
  c.publishedMediaId = id;
  const children = c.children.map((cid) => (sim.objects.get(cid) as SimContainer).params);
  sim.recordPost({
    platform: 'instagram',
    accountId: account.id,
    postId: id,
    postUrl: permalink,
    kind: product === 'STORY' ? 'story' : product === 'REELS' ? 'reel' : c.mediaType === 'CAROUSEL' ? 'carousel' : 'feed',
    body: {
      caption: c.params.caption ?? null,
      media: children.length ? children.map((p) => p.image_url ?? p.video_url) : [c.params.image_url ?? c.params.video_url],
      container_id: c.id,
      params: c.params,
      // The options as Instagram received them; a carousel's tags and alt texts are on its children.
      options: instagramOptionsOf(c.params),
      ...(children.length ? { children_options: children.map(instagramOptionsOf) } : {}),
    },
  });
  return { id };
}
