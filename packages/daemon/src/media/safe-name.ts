const MAX_STEM = 80;

/**
 * The last segment of a prepared URL: the source's own file name (from
 * Content-Disposition or the URL path) reduced to `[A-Za-z0-9._-]`, with the extension
 * of the sniffed format. Only for readability: files are found by their token.
 */
export function safeFileName(candidates: readonly (string | null | undefined)[], ext: string): string {
  for (const c of candidates) {
    if (!c) continue;
    let decoded = c;
    try {
      decoded = decodeURIComponent(c);
    } catch {
      // keep it encoded: the characters are replaced below anyway
    }
    const base = decoded.split(/[\\/]/).pop() ?? '';
    const stem = base
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .normalize('NFKD')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, MAX_STEM)
      .replace(/[-.]+$/, '');
    if (stem) return stem + ext;
  }
  return `file${ext}`;
}

/** The filename from a Content-Disposition header (RFC 6266 filename* first), or null. */
export function dispositionFileName(header: string | undefined): string | null {
  if (!header) return null;
  const star = /filename\*\s*=\s*(?:[\w-]+)?'[^']*'([^;]+)/i.exec(header);
  if (star?.[1]) return star[1].trim();
  const plain = /filename\s*=\s*(?:"((?:\\.|[^"])*)"|([^;]+))/i.exec(header);
  const name = plain?.[1] ?? plain?.[2];
  return name ? name.trim().replace(/\\(.)/g, '$1') : null;
}
