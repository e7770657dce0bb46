import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCOPE_TABLE_END, SCOPE_TABLE_START, scopeTable } from '../packages/daemon/src/http/route-table/scope-table';

/**
 * Rewrites the table of key scopes in docs/api.md from the route table (run after changing
 * a route's `scope`: `node --import tsx scripts/write-scope-table.ts`); the daemon's
 * test/route-table/scope-table.test.ts fails while the document and the table differ.
 */
const file = resolve(fileURLToPath(new URL('../docs/api.md', import.meta.url)));
const doc = readFileSync(file, 'utf8');
const start = doc.indexOf(SCOPE_TABLE_START);
const end = doc.indexOf(SCOPE_TABLE_END);
if (start < 0 || end < start) throw new Error(`docs/api.md has no ${SCOPE_TABLE_START} … ${SCOPE_TABLE_END} section`);
writeFileSync(file, `${doc.slice(0, start + SCOPE_TABLE_START.length)}\n${scopeTable()}\n${doc.slice(end)}`);
