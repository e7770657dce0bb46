import { DAY_MS, fail, type MetaSimState, type SimAccount, type SimPlatform } from './core';

/** An Instagram or Threads media container (docs/reference/platforms.md §1.1, §4.1). */
export interface SimContainer extends Record<string, unknown> {
  _type: 'container';
  id: string;
  platform: SimPlatform;
  accountId: string;
  mediaType: string;
  params: Record<string, string>;
  createdAt: number;
  readyAt: number;
  error: string | null;
  isCarouselItem: boolean;
  children: string[];
  publishedMediaId: string | null;
}

export type ContainerStatus = 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export interface NewContainer {
  platform: SimPlatform;
  accountId: string;
  mediaType: string;
  params: Record<string, string>;
  isCarouselItem: boolean;
  children: string[];
  video: boolean;
}

export function createContainer(sim: MetaSimState, c: NewContainer): SimContainer {
  const now = sim.clock.now();
  const container: SimContainer = {
    _type: 'container',
    id: sim.newId(c.platform === 'threads' ? '18' : '17'),
    platform: c.platform,
    accountId: c.accountId,
    mediaType: c.mediaType,
    params: c.params,
    isCarouselItem: c.isCarouselItem,
    children: c.children,
    createdAt: now,
    readyAt: now + (c.video ? sim.config.videoProcessingMs : sim.config.imageProcessingMs),
    error: sim.takeProcessingFailure(c.platform),
    publishedMediaId: null,
  };
  sim.objects.set(container.id, container);
  return container;
}

/** The status as of the simulator's clock: IN_PROGRESS until processed, EXPIRED after 24 h unpublished. */
export function containerStatus(sim: MetaSimState, c: SimContainer): ContainerStatus {
  const now = sim.clock.now();
  if (c.publishedMediaId) return 'PUBLISHED';
  if (now >= c.createdAt + DAY_MS) return 'EXPIRED';
  if (now < c.readyAt) return 'IN_PROGRESS';
  if (c.error) return 'ERROR';
  return 'FINISHED';
}

export function getContainer(sim: MetaSimState, id: string | undefined, platform: SimPlatform, accountId: string): SimContainer {
  const c = id ? sim.objects.get(id) : undefined;
  if (!c || c._type !== 'container' || (c as SimContainer).platform !== platform || (c as SimContainer).accountId !== accountId) {
    fail(100, `Invalid parameter: creation_id ${id ?? '(missing)'} does not exist or does not belong to this account`, { subcode: 2207006 });
  }
  return c as SimContainer;
}

/** Carousel children: 2..max finished carousel items of this account. */
export function checkChildren(sim: MetaSimState, raw: string | undefined, platform: SimPlatform, accountId: string, max: number): string[] {
  let ids: string[] = [];
  if (raw) {
    try {
      const parsed: unknown = JSON.parse(raw);
      ids = Array.isArray(parsed) ? parsed.map(String) : String(parsed).split(',');
    } catch {
      ids = raw.split(',');
    }
  }
  ids = ids.map((s) => s.trim()).filter(Boolean);
  if (ids.length < 2 || ids.length > max) fail(100, `The carousel must have between 2 and ${max} children; it has ${ids.length}.`, { subcode: 2207028 });
  for (const id of ids) {
    const child = sim.objects.get(id) as SimContainer | undefined;
    if (!child || child._type !== 'container' || child.platform !== platform || child.accountId !== accountId || !child.isCarouselItem) {
      fail(100, `Invalid parameter: child ${id} is not a carousel item container of this account`, { subcode: 2207006 });
    }
    const st = containerStatus(sim, child);
    if (st !== 'FINISHED') fail(9007, 'The media is not ready for publishing, please wait for a moment', { subcode: 2207027 });
  }
  return ids;
}

/**
 * The row of a container platform's publishing-limit edge (Instagram content_publishing_limit,
 * Threads threads_publishing_limit): the account's publishes in the last 24 h, and the quota
 * itself when `config` is among the fields asked for.
 */
export function publishingLimitRow(sim: MetaSimState, account: SimAccount, platform: 'instagram' | 'threads', fields: string): Record<string, unknown> {
  const row: Record<string, unknown> = { quota_usage: sim.usage(account.publishes) };
  if (fields.includes('config')) row.config = { quota_total: sim.config.quota[platform], quota_duration: DAY_MS / 1000 };
  return row;
}
