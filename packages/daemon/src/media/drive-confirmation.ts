import { scanTags } from '../util/html-tags';

/**
 * Google Drive answers a download of a large file (one it cannot virus-scan) with an
 * HTML warning page instead of the bytes. The page carries the confirmed download link,
 * in one of two shapes over the years:
 *
 * - a GET form: `<form id="download-form" action="https://drive.usercontent.google.com/download">`
 *   with hidden inputs `id`, `export`, `confirm` and `uuid` (current);
 * - a link `href="/uc?export=download&amp;confirm=XXXX&amp;id=ID"` (older; the confirm
 *   token pairs with a `download_warning` cookie, which the fetcher keeps per download).
 *
 * Returns the URL to fetch next, or null when the page is not a confirmation page (a
 * sign-in page, a "file not found" page): then the link is refused as an HTML page.
 */
export function parseDriveConfirmation(html: string, pageUrl: string): string | null {
  // One linear pass over the page's tags (util/html-tags.ts): the regexes this replaced
  // backtracked on a page of unclosed `<form ` openings (240 KB: 16 s).
  const { tags } = scanTags(html, ['form', '/form', 'input', 'a']);
  const formAt = tags.findIndex((t) => t.name === 'form' && t.attrs.get('id') === 'download-form' && t.attrs.get('action'));
  if (formAt !== -1) {
    const next = new URL(decodeEntities(tags[formAt]!.attrs.get('action')!), pageUrl);
    for (const input of tags.slice(formAt + 1)) {
      if (input.name === '/form') break;
      const name = input.name === 'input' ? input.attrs.get('name') : undefined;
      if (name) next.searchParams.set(decodeEntities(name), decodeEntities(input.attrs.get('value') ?? ''));
    }
    return next.href;
  }
  const link = tags.map((t) => t.attrs.get('href') ?? '').find((href) => CONFIRM_LINK.test(href));
  if (link) return new URL(decodeEntities(link), pageUrl).href;
  return null;
}

/** A link carrying the confirm token: `?confirm=` or `&amp;confirm=` with a value. */
const CONFIRM_LINK = /[?&](?:amp;)?confirm=[^"']/i;

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
