/** One part of a multipart/form-data (or multipart/related) body, its bytes untouched. */
export interface MultipartPart {
  name: string | null;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/**
 * Splits a multipart body into its parts, keeping every part's bytes as they came: a part
 * without a filename is still binary (X's append takes raw bytes that way, and the Web
 * FormData parser would decode them as UTF-8 text). Null when the body is not multipart
 * with a boundary.
 */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] | null {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!/^multipart\//i.test(contentType.trim()) || !boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) return null;
  for (;;) {
    const afterDelimiter = at + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString('latin1') === '--') return parts;
    const headStart = body.indexOf('\r\n', afterDelimiter);
    const headEnd = body.indexOf('\r\n\r\n', afterDelimiter);
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headEnd < 0 ? afterDelimiter : headEnd);
    if (headStart < 0 || headEnd < 0 || next < 0) return null;
    const headers = body.subarray(headStart + 2, headEnd).toString('utf8').split('\r\n');
    const header = (name: string) => headers.find((h) => h.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim() ?? null;
    const disposition = header('content-disposition') ?? '';
    parts.push({
      name: /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1] ?? null,
      contentType: header('content-type'),
      data: body.subarray(headEnd + 4, next),
    });
    at = next + 2;
  }
}

/** The fields of a multipart/form-data body: text for `fields`, bytes for the rest. */
export function multipartFields(parts: MultipartPart[], textFields: readonly string[]): Record<string, string | Buffer> {
  const out: Record<string, string | Buffer> = {};
  for (const p of parts) {
    if (p.name === null) continue;
    out[p.name] = textFields.includes(p.name) && p.filename === null ? p.data.toString('utf8') : p.data;
  }
  return out;
}
