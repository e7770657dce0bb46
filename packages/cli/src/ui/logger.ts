import type { Io } from '../io';
import { ansiStyles, type Styles } from './ansi';

export interface LoggerOptions {
  io: Io;
  /** --json: stdout carries exactly one JSON document and nothing else. */
  json: boolean;
  /** --no-color; NO_COLOR and a non-terminal stdout also turn colour off. */
  color: boolean;
}

export interface Column<Row> {
  header: string;
  value: (row: Row) => string;
  /** Colour a cell after padding (padding must count visible characters only). */
  style?: (text: string, row: Row) => string;
}

/**
 * All output goes through here. Results go to stdout; progress, hints and warnings to
 * stderr, so `socialpub ... | jq` and `x=$(socialpub ...)` see only the result. Terminal
 * styles (ui/ansi.ts) are used nowhere else.
 */
export class Logger {
  readonly json: boolean;
  private readonly io: Io;
  private readonly out: Styles;
  private readonly err: Styles;

  constructor({ io, json, color }: LoggerOptions) {
    this.io = io;
    this.json = json;
    const allowed = color && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
    const force = io.env.FORCE_COLOR !== undefined && io.env.FORCE_COLOR !== '0';
    this.out = ansiStyles(allowed && (io.stdoutIsTTY || force));
    this.err = ansiStyles(allowed && (io.interactive || force));
  }

  get colorOnStderr(): boolean {
    return this.err.enabled;
  }

  /** The one JSON document of a --json run. */
  data(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  }

  /** Prints the result: JSON under --json, else the human rendering. */
  result(value: unknown, human: () => string | string[]): void {
    if (this.json) return this.data(value);
    const text = human();
    const lines = Array.isArray(text) ? text : [text];
    if (lines.length) this.io.stdout.write(`${lines.join('\n')}\n`);
  }

  /**
   * result() for a rendering that needs a module of its own (ui/format, which loads the
   * time zone library): the module is imported only when the result is shown to a person,
   * so a --json run never loads it.
   */
  async resultWith<M>(value: unknown, load: () => Promise<M>, human: (module: M) => string | string[]): Promise<void> {
    if (this.json) return this.data(value);
    const module = await load();
    this.result(value, () => human(module));
  }

  /** A line of the result (human mode only). */
  line(text = ''): void {
    if (!this.json) this.io.stdout.write(`${text}\n`);
  }

  /** Progress and notes on stderr; silent under --json. */
  info(text: string): void {
    if (!this.json) this.io.stderr.write(`${text}\n`);
  }

  success(text: string): void {
    if (!this.json) this.io.stderr.write(`${this.err.green('✔')} ${text}\n`);
  }

  /** Warnings still show under --json: they go to stderr, which scripts do not parse. */
  warn(text: string): void {
    this.io.stderr.write(`${this.err.yellow('warning:')} ${text}\n`);
  }

  /** The entry point's error line (human mode). */
  error(message: string, hint?: string): void {
    this.io.stderr.write(`${this.err.red('error:')} ${message}\n`);
    if (hint) this.io.stderr.write(`${this.err.dim(`hint: ${hint}`)}\n`);
  }

  /** A padded table; an empty list prints `empty` instead. */
  table<Row>(rows: readonly Row[], columns: readonly Column<Row>[], empty = 'nothing to show'): string[] {
    if (rows.length === 0) return [this.out.dim(empty)];
    const cells = rows.map((r) => columns.map((c) => c.value(r)));
    const widths = columns.map((c, i) => Math.max(width(c.header), ...cells.map((row) => width(row[i] ?? ''))));
    const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - width(s)));
    const head = columns.map((c, i) => pad(c.header, widths[i] ?? 0)).join('  ').trimEnd();
    const body = cells.map((row, r) =>
      row
        .map((cell, i) => {
          const padded = pad(cell, widths[i] ?? 0);
          const style = columns[i]?.style;
          return style ? style(padded, rows[r] as Row) : padded;
        })
        .join('  ')
        .trimEnd(),
    );
    return [this.out.bold(head), ...body];
  }

  /** Key: value lines with aligned keys; an empty key continues the line above (a value aligned under the others, no colon). */
  fields(pairs: readonly (readonly [string, string])[]): string[] {
    const w = Math.max(...pairs.map(([k]) => width(k)));
    return pairs.map(([k, v]) => `${this.out.dim((k === '' ? '' : `${k}:`).padEnd(w + 1))} ${v}`);
  }

  // Styling for result text (stdout), so commands never write escape codes themselves.
  bold = (s: string) => this.out.bold(s);
  dim = (s: string) => this.out.dim(s);
  green = (s: string) => this.out.green(s);
  red = (s: string) => this.out.red(s);
  yellow = (s: string) => this.out.yellow(s);
  cyan = (s: string) => this.out.cyan(s);

  /** Colours a target or job status by what it means. */
  status = (s: string): string => {
    if (s.startsWith('published')) return this.out.green(s.replace(/^published/, 'published'));
    if (/^(failed|needs_review)/.test(s)) return this.out.red(s);
    if (/^(pending_approval|partially_published)/.test(s)) return this.out.yellow(s);
    if (/^(publishing|processing)/.test(s)) return this.out.cyan(s);
    if (/^cancelled/.test(s)) return this.out.dim(s);
    return s;
  };
}

/** Visible width: code points, ignoring ANSI escapes. */
function width(s: string): number {
  // eslint-disable-next-line no-control-regex
  return [...s.replace(/\u001b\[[0-9;]*m/g, '')].length;
}
