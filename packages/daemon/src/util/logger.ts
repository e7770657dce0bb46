import { redactUrlSecrets } from './redact-url';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** Field names whose values are never written out. */
const SECRET_FIELD = /(secret|token|password|passwd|authorization|cookie|api[-_]?key|private[-_]?key|credential)/i;
/** API keys and bearer tokens found inside free text. */
const SECRET_TEXT: [RegExp, string][] = [
  [/\bsp_(key_[0-9a-z]{20})_[0-9a-z]+/g, 'sp_$1_[redacted]'],
  [/\b(Bearer)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
];

/** Strips secrets from a value before it is logged: by field name, and by shape inside strings. */
export function redact(value: unknown, depth = 0): unknown {
  // Credentials in URLs (signing parameters, tokens, userinfo) too: see redact-url.ts.
  if (typeof value === 'string') return redactUrlSecrets(SECRET_TEXT.reduce((s, [re, to]) => s.replace(re, to), value));
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return { name: value.name, message: redact(value.message, depth + 1) };
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELD.test(k) && v !== null && v !== undefined && typeof v !== 'boolean' ? '[redacted]' : redact(v, depth + 1);
  }
  return out;
}

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export interface LoggerOptions {
  /** Lowest level written (default info). */
  level?: LogLevel;
  /** Where lines go (default process.stderr). */
  write?: (line: string) => void;
  /** Time source (default Date.now). */
  now?: () => number;
  /** Fields added to every line. */
  base?: Record<string, unknown>;
}

export interface RootLogger extends Logger {
  child(fields: Record<string, unknown>): RootLogger;
}

/** A logger that writes one JSON object per line, secrets redacted. */
export function createLogger(opts: LoggerOptions = {}): RootLogger {
  const min = RANK[opts.level ?? 'info'];
  const write = opts.write ?? ((line: string) => void process.stderr.write(line + '\n'));
  const now = opts.now ?? Date.now;
  const base = opts.base ?? {};
  const emit = (level: Exclude<LogLevel, 'silent'>, msg: string, fields?: Record<string, unknown>) => {
    if (RANK[level] < min) return;
    const line = { time: new Date(now()).toISOString(), level, msg: redact(msg), ...(redact({ ...base, ...fields }) as object) };
    write(JSON.stringify(line));
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    child: (fields) => createLogger({ ...opts, base: { ...base, ...fields } }),
  };
}

/** Discards everything (tests that do not look at logs). */
export const silentLogger: RootLogger = createLogger({ level: 'silent' });
