// How many values a JSON text or value holds, counted without building it: the guard every
// JSON entry point (the API's bodies, MCP messages) puts before JSON.parse.

/**
 * The most values (array items and object members, at any depth) a request body may hold.
 * The largest real body (a queue of 200 slots listing every platform: under 3,000) stays below; a
 * 10 MB body of 500,000 array items took the schema check 3.4 s and as many errors
 * (issue 28), so such a body is refused before any schema sees it.
 */
export const MAX_JSON_VALUES = 10_000;

/**
 * True when the JSON text certainly holds more than `limit` values: more commas, `[` and
 * `{` outside strings than that (each value but the first of a container follows a
 * comma; each container is a value). One pass over the characters, so a body of half a
 * million items is refused before JSON.parse builds them (which alone took longer than
 * the event loop may be held). Small texts cannot hold that many and are not scanned.
 */
export function textExceedsJsonValues(text: string, limit: number = MAX_JSON_VALUES): boolean {
  if (text.length <= 2 * limit) return false;
  let count = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x2c || c === 0x5b || c === 0x7b) {
      if (++count > limit) return true;
    }
  }
  return false;
}

/** True when `value` holds more than `limit` values; stops counting there. */
export function exceedsJsonValues(value: unknown, limit: number = MAX_JSON_VALUES): boolean {
  let seen = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    const children = Array.isArray(v) ? v : Object.values(v);
    seen += children.length;
    if (seen > limit) return true;
    for (const child of children) if (child !== null && typeof child === 'object') stack.push(child);
  }
  return false;
}
