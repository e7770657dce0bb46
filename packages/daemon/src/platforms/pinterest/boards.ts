import type { PinterestClient } from './pinterest-client';

export interface PinterestBoard {
  id: string;
  name: string;
}

/** Pages read at most (100 boards each): an account with more picks its board with --board. */
const MAX_PAGES = 10;

/** The account's boards: `GET /v5/boards?page_size=100`, following `bookmark` (scope boards:read). */
export async function listBoards(c: PinterestClient): Promise<PinterestBoard[]> {
  const out: PinterestBoard[] = [];
  let bookmark: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res: { body: { items?: Array<{ id?: string; name?: string }>; bookmark?: string | null } } = await c.request('/v5/boards', {
      method: 'GET',
      query: { page_size: '100', ...(bookmark ? { bookmark } : {}) },
    });
    for (const b of res.body.items ?? []) if (typeof b.id === 'string') out.push({ id: b.id, name: b.name ?? b.id });
    bookmark = res.body.bookmark ?? null;
    if (!bookmark) break;
  }
  return out;
}
