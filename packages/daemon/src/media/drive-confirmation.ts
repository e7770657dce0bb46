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
  const form = /<form\b[^>]*\bid=["']download-form["'][^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (form) {
    const action = /\baction=["']([^"']+)["']/i.exec(form[0])?.[1];
    if (action) {
      const next = new URL(decodeEntities(action), pageUrl);
      for (const input of form[1]?.matchAll(/<input\b[^>]*>/gi) ?? []) {
        const name = /\bname=["']([^"']*)["']/i.exec(input[0])?.[1];
        const value = /\bvalue=["']([^"']*)["']/i.exec(input[0])?.[1] ?? '';
        if (name) next.searchParams.set(decodeEntities(name), decodeEntities(value));
      }
      return next.href;
    }
  }
  const link = /href=["']([^"']*[?&](?:amp;)?confirm=[^"']+)["']/i.exec(html)?.[1];
  if (link) return new URL(decodeEntities(link), pageUrl).href;
  return null;
}

function decodeEntities(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
