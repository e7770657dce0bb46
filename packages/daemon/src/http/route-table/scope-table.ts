import { KEY_SCOPES, ROUTES, scopeAllows, type RouteDecl } from '@socialpub/core';

/** Where the table sits in docs/api.md ("Key scopes"): between these two lines. */
export const SCOPE_TABLE_START = '<!-- scope-table:start (generated from the route table: scripts/write-scope-table.ts) -->';
export const SCOPE_TABLE_END = '<!-- scope-table:end -->';

/**
 * The table of docs/api.md "Key scopes": every keyed route of the table, in its order, with
 * the least scope it needs and which scopes reach it. Derived from the declarations, so the
 * document cannot drift from what authentication enforces (a test compares the two).
 */
export function scopeTable(table: Readonly<Record<string, RouteDecl>> = ROUTES): string {
  const keyed = Object.values(table).filter((r) => r.auth === 'key');
  const lines = [`| Endpoint | Needs | ${KEY_SCOPES.map((s) => `\`${s}\` key`).join(' | ')} |`, `|---|---|${KEY_SCOPES.map(() => '---|').join('')}`];
  for (const route of keyed) {
    if (!route.scope) throw new Error(`${route.name} needs a key but declares no key scope`);
    const needed = route.scope;
    const marks = KEY_SCOPES.map((s) => (scopeAllows(s, needed) ? 'yes' : '403'));
    lines.push(`| \`${route.method} ${route.path}\` | \`${needed}\` | ${marks.join(' | ')} |`);
  }
  return lines.join('\n');
}
