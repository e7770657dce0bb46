import type { Context } from 'hono';

/** A JSON or form body (Mastodon takes both); `poll[options][]` style keys folded into objects. */
export async function readBody(c: Context): Promise<Record<string, unknown> | null> {
  const type = c.req.header('content-type') ?? '';
  if (type.includes('application/json')) {
    try {
      const b: unknown = await c.req.json();
      return b && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
  if (type.includes('form')) {
    const form = await c.req.parseBody({ all: true, dot: false });
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(form)) {
      const path = k.replace(/\]/g, '').split('[').filter((p, i) => p !== '' || i === 0);
      const isList = k.endsWith('[]');
      let at: Record<string, unknown> = out;
      path.forEach((p, i) => {
        if (i === path.length - 1) at[p] = isList ? (Array.isArray(v) ? v : [v]) : v;
        else at = (at[p] ??= {}) as Record<string, unknown>;
      });
    }
    return out;
  }
  return {};
}
