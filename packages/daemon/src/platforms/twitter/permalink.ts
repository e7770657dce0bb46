/** What X accepts as a username: 1-15 letters, digits or underscores. */
const HANDLE = /^[A-Za-z0-9_]{1,15}$/;

/** `name` when it is a username X could have given, else null (never worth failing a call). */
export const xHandle = (name: unknown): string | null => (typeof name === 'string' && HANDLE.test(name) ? name : null);

/**
 * A post's address on X (docs/reference/platforms.md, X "Permalink"): `x.com/<handle>/status/<id>`
 * when the author's handle is known, else `x.com/i/web/status/<id>`, which resolves without
 * it. Published posts, comments and our replies all take this one form.
 */
export const xPermalink = (handle: string | null | undefined, id: string): string => {
  const h = xHandle(handle);
  return h ? `https://x.com/${h}/status/${id}` : `https://x.com/i/web/status/${id}`;
};
