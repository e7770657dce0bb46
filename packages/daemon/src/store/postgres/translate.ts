/**
 * The store's SQL, written once for SQLite, as PostgreSQL takes it. The repositories write
 * in the subset both databases share (docs/architecture.md "Two databases"); what differs
 * only in spelling is changed here, mechanically, once per statement (the result is cached
 * with the prepared statement):
 *
 * - parameters: `?` and `@name`/`:name` become `$1…` (a name used twice is one parameter);
 *   `$n IS NULL` gets a type (`$n::text IS NULL`), which PostgreSQL cannot infer alone;
 * - `x IS ?` (SQLite's null-safe equality) becomes `IS NOT DISTINCT FROM`;
 * - SQLite's planner hints go: `INDEXED BY name`, the unary `+` before a column;
 * - `json_each(array)` becomes `json_array_elements_text(array::json) WITH ORDINALITY AS
 *   alias(value, key)`, and `column->>'key'` reads the column as json (`column::json->>'key'`);
 * - `instr(a, b)` becomes `strpos(a, b)`;
 * - a camelCase alias is quoted, so the row keeps its name (PostgreSQL folds it to lower case).
 *
 * String literals, quoted identifiers and comments are left as they are. Statements that
 * differ in more than spelling are written twice in their repository (`dialectOf`).
 */
export interface TranslatedSql {
  text: string;
  /** For named parameters: the name of $1, $2… ; null when the statement uses `?`. */
  names: string[] | null;
  /** How many `?` the statement takes. */
  positional: number;
}

const SEGMENT = /('(?:[^']|'')*')|("(?:[^"]|"")*")|(--[^\n]*)/g;

export function translateSql(sql: string): TranslatedSql {
  const names: string[] = [];
  let positional = 0;
  const parts: string[] = [];
  let last = 0;
  const code = (chunk: string) => {
    let s = chunk;
    s = s.replace(/\bINDEXED BY\s+\w+/gi, '');
    s = s.replace(/\b(AND|WHERE|ON|OR|NOT)\s+\+(?=[A-Za-z_])/gi, '$1 ');
    s = s.replace(/\binstr\(/gi, 'strpos(');
    s = s.replace(/\bjson_each\(([^()]*(?:\([^()]*\))?[^()]*)\)(\s+(?:AS\s+)?(?!WHERE\b|ORDER\b|GROUP\b|LIMIT\b|ON\b|JOIN\b)([A-Za-z_]\w*))?/gi, (_m, arg: string, _a, alias: string | undefined) => `json_array_elements_text((${arg})::json) WITH ORDINALITY AS ${alias ?? 'json_each'}(value, key)`);
    s = s.replace(/\b([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)\s*(->>?)/g, '$1::json$2');
    s = s.replace(/\bIS\s+NOT\s+(?=[?@:])/gi, 'IS DISTINCT FROM ');
    s = s.replace(/\bIS\s+(?=[?@:])/gi, 'IS NOT DISTINCT FROM ');
    s = s.replace(/\bAS\s+([A-Za-z_]\w*)/g, (m, name: string) => (/[A-Z]/.test(name) && !KEYWORDS.has(name.toUpperCase()) ? `AS "${name}"` : m));
    s = s.replace(/\?|(?<![:\w]):([A-Za-z_]\w*)|@([A-Za-z_]\w*)/g, (_m, colon: string | undefined, at: string | undefined) => {
      const name = colon ?? at;
      if (name === undefined) return `$${++positional}`;
      let i = names.indexOf(name);
      if (i < 0) i = names.push(name) - 1;
      return `$${i + 1}`;
    });
    s = s.replace(/(\$\d+)(\s+IS\s+(?:NOT\s+)?NULL\b)/gi, '$1::text$2');
    return s;
  };
  for (const m of sql.matchAll(SEGMENT)) {
    parts.push(code(sql.slice(last, m.index)), m[0]);
    last = m.index + m[0].length;
  }
  parts.push(code(sql.slice(last)));
  if (positional > 0 && names.length > 0) throw new Error(`a statement mixes ? and named parameters: ${sql}`);
  return { text: parts.join(''), names: names.length > 0 ? names : null, positional };
}

const KEYWORDS = new Set(['SELECT', 'FROM', 'WHERE', 'TEXT', 'INTEGER', 'BIGINT', 'JSON', 'NULL']);
