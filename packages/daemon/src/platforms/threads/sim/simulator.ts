import { links, threadsLength } from '../../meta/text-rules';
import { checkThreadsOptions, threadsOptionsOf, threadsReadBack } from './option-rules';
import { checkChildren, containerStatus, createContainer, getContainer, publishingLimitRow, type SimContainer } from '../../meta/sim/containers';
import { bool, DAY_MS, fail, graphTime, isPublicHttpUrl, listEdge, pickFields, type MetaSimState, type SimAccount, type SimRequest } from '../../meta/sim/core';

/**
 * graph.threads.net, strict per docs/reference/platforms.md §4 and §9: containers, publishing on
 * FINISHED only, 500 characters counted the Threads way, at most 5 links, carousels of
 * 2-20, 250 posts per 24 h on threads_publish.
 */
export function threadsRoutes(req: SimRequest, sim: MetaSimState): unknown {
  const [id, edge, extra] = req.segments;
  if (!id || extra !== undefined || id === 'oauth' || id === 'access_token' || id === 'refresh_access_token') return undefined;
  const obj = sim.objects.get(id);
  if (!edge && req.method === 'GET') {
    if (obj?._type === 'container' && obj.platform === 'threads') {
      const c = obj as SimContainer;
      sim.actingFor(req, c.accountId, 'threads', 'threads_user');
      const status = containerStatus(sim, c);
      const view: Record<string, unknown> = { id: c.id, status };
      if (status === 'ERROR') view.error_message = c.error;
      return pickFields(view, req.params.fields, ['id']);
    }
    if (obj?._type === 'threads_media') {
      sim.actingFor(req, String(obj.accountId), 'threads', 'threads_user');
      return pickFields(obj, req.params.fields, ['id']);
    }
    const acc = sim.pathAccount(req, id, 'threads', 'threads_user');
    return pickFields({ id: acc.id, username: acc.username, name: acc.name }, req.params.fields, ['id']);
  }
  const acc = sim.pathAccount(req, id, 'threads', 'threads_user');
  if (edge === 'threads' && req.method === 'POST') return createThread(req, sim, acc);
  if (edge === 'threads' && req.method === 'GET') {
    return listEdge(sim, req, (o) => o._type === 'threads_media' && o.accountId === acc.id, ['id']);
  }
  if (edge === 'threads_publish' && req.method === 'POST') return publish(req, sim, acc);
  if (edge === 'threads_publishing_limit' && req.method === 'GET') {
    const fields = req.params.fields ?? 'quota_usage';
    const row = publishingLimitRow(sim, acc, 'threads', fields);
    if (fields.includes('reply_quota_usage')) row.reply_quota_usage = 0;
    if (fields.includes('reply_config')) row.reply_config = { quota_total: 1000, quota_duration: DAY_MS / 1000 };
    return { data: [row] };
  }
  return fail(100, `Unsupported ${req.method} request.`, { subcode: 33 });
}

function createThread(req: SimRequest, sim: MetaSimState, acc: SimAccount): unknown {
  const p = req.params;
  const type = p.media_type;
  const carouselItem = bool(p.is_carousel_item, false);
  if (p.text !== undefined) {
    if (threadsLength(p.text) > 500) fail(100, 'Param text must be at most 500 characters long.');
    const all = links(p.text);
    if (p.link_attachment && !all.includes(p.link_attachment.toLowerCase())) all.push(p.link_attachment.toLowerCase());
    if (all.length > 5) fail(100, 'THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links.', { userMsg: 'THREADS_API__LINK_LIMIT_EXCEEDED' });
  }
  if (p.link_attachment !== undefined && type !== 'TEXT') fail(100, 'Param link_attachment is only supported on TEXT posts.');
  checkThreadsOptions(p, carouselItem);
  let video = false;
  let children: string[] = [];
  switch (type) {
    case 'TEXT':
      if (carouselItem) fail(100, 'A TEXT container cannot be a carousel item.');
      if (!p.text) fail(100, 'Param text is required for TEXT posts.');
      break;
    case 'IMAGE':
      if (!isPublicHttpUrl(p.image_url)) fail(100, 'The media could not be fetched from this URI: image_url must be a public http(s) URL.', { subcode: 2207052 });
      break;
    case 'VIDEO':
      if (!isPublicHttpUrl(p.video_url)) fail(100, 'The media could not be fetched from this URI: video_url must be a public http(s) URL.', { subcode: 2207052 });
      video = true;
      break;
    case 'CAROUSEL':
      children = checkChildren(sim, p.children, 'threads', acc.id, 20);
      break;
    default:
      fail(100, `Param media_type must be one of TEXT, IMAGE, VIDEO, CAROUSEL; got ${type ?? '(missing)'}.`);
  }
  if (carouselItem && p.text !== undefined) fail(100, 'Param text is not supported on carousel items.');
  const c = createContainer(sim, { platform: 'threads', accountId: acc.id, mediaType: type as string, params: p, isCarouselItem: carouselItem, children, video });
  return { id: c.id };
}

function publish(req: SimRequest, sim: MetaSimState, acc: SimAccount): unknown {
  const c = getContainer(sim, req.params.creation_id, 'threads', acc.id);
  if (c.isCarouselItem) fail(100, 'A carousel item cannot be published on its own.');
  const status = containerStatus(sim, c);
  if (status === 'IN_PROGRESS') fail(9007, 'The media is not ready for publishing, please wait for a moment', { subcode: 2207027 });
  if (status === 'ERROR') fail(100, `The media could not be published: ${c.error}`);
  if (status === 'EXPIRED') fail(24, 'The container has expired. Create a new one.', { subcode: 2207020 });
  if (status === 'PUBLISHED') fail(100, 'This container has already been published.', { subcode: 2207006 });
  if (sim.usage(acc.publishes) >= sim.config.quota.threads) fail(9, 'You have reached the limit of 250 posts published through the API in 24 hours.');
  const now = sim.clock.now();
  acc.publishes.push(now);
  const id = sim.newId('18');
  const shortcode = sim.shortcode();
  const permalink = `https://www.threads.net/@${acc.username}/post/${shortcode}`;
  const media = {
    _type: 'threads_media',
    id,
    accountId: acc.id,
    text: c.params.text,
    media_type: c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.mediaType === 'TEXT' ? 'TEXT_POST' : c.mediaType,
    media_product_type: 'THREADS',
    timestamp: graphTime(now),
    permalink,
    shortcode,
    username: acc.username,
    createdAt: now,
    ...threadsReadBack(c.params),
  };
  sim.objects.set(id, media);
  c.publishedMediaId = id;
  const childParams = c.children.map((cid) => (sim.objects.get(cid) as SimContainer).params);
  sim.recordPost({
    platform: 'threads',
    accountId: acc.id,
    postId: id,
    postUrl: permalink,
    kind: c.mediaType === 'CAROUSEL' ? 'carousel' : c.mediaType.toLowerCase(),
    body: { text: c.params.text ?? null, media: childParams.length ? childParams.map((p) => p.image_url ?? p.video_url) : [c.params.image_url ?? c.params.video_url].filter(Boolean), container_id: c.id, params: c.params, options: threadsOptionsOf(c.params) },
  });
  return { id };
}
