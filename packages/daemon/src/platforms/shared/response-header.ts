/** Response headers as got gives them (lower-case names; a repeated header as an array). */
export type ResponseHeaders = Record<string, string | string[] | undefined>;

/** The first value of a response header. */
export function header(headers: ResponseHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}
