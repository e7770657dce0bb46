import { scanTags } from '../../util/html-tags';

/** A page's card fields: raw, entities not decoded. */
export interface PageMeta {
  title: string | null;
  description: string | null;
  image: string | null;
  /** Characters the scan visited (util/html-tags.ts): at most a small multiple of the page's length. */
  work: number;
}

const GROUPS = {
  title: ['og:title', 'twitter:title'],
  description: ['og:description', 'twitter:description', 'description'],
  image: ['og:image', 'og:image:url', 'twitter:image'],
} as const;
type Field = keyof typeof GROUPS;

/**
 * The first title, description and image a page's meta tags give (`property` or `name`,
 * with a non-empty `content`, in document order), else its first closed `<title>`'s text
 * for the title. One linear pass over the page (util/html-tags.ts).
 */
export function scanPageMeta(html: string): PageMeta {
  const { tags, work: scanned } = scanTags(html, ['meta', 'title', '/title']);
  let work = scanned;
  const found: Record<Field, string | null> = { title: null, description: null, image: null };
  let title: string | null = null;
  let openTitle: number | null = null;
  for (const tag of tags) {
    if (tag.name === 'meta') {
      const key = (tag.attrs.get('property') || tag.attrs.get('name'))?.toLowerCase();
      const content = tag.attrs.get('content');
      if (!key || !content) continue;
      for (const f of Object.keys(GROUPS) as Field[]) if (found[f] === null && (GROUPS[f] as readonly string[]).includes(key)) found[f] = content;
    } else if (tag.name === 'title') {
      openTitle = tag.end;
    } else if (openTitle !== null && title === null) {
      // The title's text, when no markup comes between it and its end tag (the segments are disjoint: linear).
      const text = html.slice(openTitle, tag.start);
      work += text.length;
      if (!text.includes('<')) title = text;
      openTitle = null;
    }
  }
  return { title: found.title ?? title, description: found.description, image: found.image, work };
}
