import { z } from 'zod';
import { PLATFORMS, platformIds, type Platform } from '../platforms';

/** The longest latency a simulator may be told to add (2 minutes). */
export const SANDBOX_LATENCY_MAX_MS = 120_000;

/** The fault kinds a share of simulated calls can meet, by their API name (docs/platforms/simulators.md). */
export const SANDBOX_FAULT_KINDS = ['server_error', 'rate_limited', 'timeout', 'reset', 'unanswered'] as const;
export type SandboxFaultKind = (typeof SANDBOX_FAULT_KINDS)[number];

const share = (kind: string) =>
  z
    .number({ error: `${kind} must be a share of calls from 0 to 1` })
    .min(0, { error: `${kind} must be a share of calls from 0 to 1` })
    .max(1, { error: `${kind} must be a share of calls from 0 to 1` });

export const SandboxLatencySchema = z
  .object({
    min: z.number().int({ error: 'latency_ms.min must be a whole number of ms' }).min(0, { error: 'latency_ms.min must be at least 0' }).max(SANDBOX_LATENCY_MAX_MS, { error: `latency_ms.min must be at most ${SANDBOX_LATENCY_MAX_MS}` }),
    max: z.number().int({ error: 'latency_ms.max must be a whole number of ms' }).min(0, { error: 'latency_ms.max must be at least 0' }).max(SANDBOX_LATENCY_MAX_MS, { error: `latency_ms.max must be at most ${SANDBOX_LATENCY_MAX_MS}` }),
  })
  .strict()
  .refine((l) => l.min <= l.max, { error: 'latency_ms.min must not exceed latency_ms.max' })
  .meta({ id: 'SandboxLatency', description: 'Each simulated call waits a uniform random time in [min, max] ms before it is handled.' });

/** One platform's (or every platform's) faults. */
export const SandboxFaultSpecSchema = z
  .object({
    latency_ms: SandboxLatencySchema.optional(),
    server_error: share('server_error').optional().meta({ description: 'Share of calls answered 503 in the platform\'s error shape; nothing is made.' }),
    rate_limited: share('rate_limited').optional().meta({ description: "Share of calls answered 429 with the platform's own rate-limit headers; nothing is made." }),
    timeout: share('timeout').optional().meta({ description: 'Share of calls held without an answer until the client gives up; nothing is made.' }),
    reset: share('reset').optional().meta({ description: 'Share of calls whose connection is reset before anything is made.' }),
    unanswered: share('unanswered')
      .optional()
      .meta({ description: 'Share of the calls that make a post whose answer never arrives: the post is made (atomically), then the connection is destroyed.' }),
  })
  .strict()
  .refine((s) => (s.server_error ?? 0) + (s.rate_limited ?? 0) + (s.timeout ?? 0) + (s.reset ?? 0) <= 1 + 1e-9, {
    error: 'server_error + rate_limited + timeout + reset must not exceed 1 (each call meets at most one of them)',
  })
  .meta({ id: 'SandboxFaultSpec' });
export type SandboxFaultSpec = z.infer<typeof SandboxFaultSpecSchema>;

/** `all` or a platform: what a sandbox call to that platform meets. */
export const SANDBOX_FAULT_SCOPES = ['all', ...platformIds()] as const;
export type SandboxFaultScope = 'all' | Platform;

export const SandboxFaultsSchema = z
  .partialRecord(z.enum(SANDBOX_FAULT_SCOPES), SandboxFaultSpecSchema)
  .meta({ id: 'SandboxFaults', description: 'Faults for every platform (`all`) and per platform; a platform\'s own fields override `all`\'s.' });
export type SandboxFaults = Partial<Record<SandboxFaultScope, SandboxFaultSpec>>;

/** Body of PUT /sandbox/faults: replaces the caller's faults. */
export const SandboxFaultsPutSchema = z.object({ faults: SandboxFaultsSchema }).strict().meta({ id: 'SandboxFaultsRequest' });
export type SandboxFaultsPut = z.infer<typeof SandboxFaultsPutSchema>;

export const SandboxFaultsResponseSchema = z
  .object({
    success: z.literal(true),
    faults: SandboxFaultsSchema.meta({ description: "The caller's own faults (PUT/DELETE change them); they apply to the caller's sandbox connections." }),
    global: SandboxFaultsSchema.meta({ description: 'Faults the daemon applies to every user (SOCIALPUB_SANDBOX_LATENCY_MS, SOCIALPUB_SANDBOX_FAULTS, config.json sandbox_faults); read-only here.' }),
  })
  .meta({ id: 'SandboxFaultsResponse' });
export type SandboxFaultsResponse = z.infer<typeof SandboxFaultsResponseSchema>;

/** The short names of the fault kinds in SOCIALPUB_SANDBOX_FAULTS and the CLI. */
export const SANDBOX_FAULT_SHORT_NAMES: Record<string, SandboxFaultKind> = {
  '5xx': 'server_error',
  server_error: 'server_error',
  '429': 'rate_limited',
  rate_limited: 'rate_limited',
  timeout: 'timeout',
  reset: 'reset',
  unanswered: 'unanswered',
};

const SCOPE_SET = new Set<string>(SANDBOX_FAULT_SCOPES);

/** `200-400` or `300` (ms) as a latency range. */
export function parseLatencyRange(text: string, where: string): { min: number; max: number } {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  if (!m) throw new Error(`${where}: latency must be MIN-MAX or MS (whole milliseconds), not ${JSON.stringify(text)}`);
  const min = Number(m[1]);
  const max = m[2] === undefined ? min : Number(m[2]);
  if (min > max) throw new Error(`${where}: latency ${text}: the lower bound is above the upper one`);
  if (max > SANDBOX_LATENCY_MAX_MS) throw new Error(`${where}: latency ${text}: at most ${SANDBOX_LATENCY_MAX_MS} ms`);
  return { min, max };
}

/** `0.1`, `10%` as a share from 0 to 1. */
export function parseShare(text: string, where: string): number {
  const t = text.trim();
  const pct = t.endsWith('%');
  const n = Number(pct ? t.slice(0, -1) : t);
  const v = pct ? n / 100 : n;
  if (t === '' || t === '%' || !Number.isFinite(v) || v < 0 || v > 1) throw new Error(`${where}: a share must be 0 to 1 or 0% to 100%, not ${JSON.stringify(text)}`);
  return v;
}

function scopeOf(name: string, where: string): SandboxFaultScope {
  const s = name.trim().toLowerCase();
  if (s === '*' || s === 'all') return 'all';
  if (!SCOPE_SET.has(s)) throw new Error(`${where}: unknown platform ${JSON.stringify(name)} (all, ${PLATFORMS.join(', ')})`);
  return s as SandboxFaultScope;
}

/**
 * SOCIALPUB_SANDBOX_LATENCY_MS: `200-400` (every platform), or a list
 * `twitter=500-900,threads=100-200,all=50` (one range a platform, `all`/`*` for the rest).
 */
export function parseSandboxLatencyList(text: string, where = 'SOCIALPUB_SANDBOX_LATENCY_MS'): SandboxFaults {
  const out: SandboxFaults = {};
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    const scope = eq < 0 ? 'all' : scopeOf(item.slice(0, eq), where);
    out[scope] = { ...out[scope], latency_ms: parseLatencyRange(eq < 0 ? item : item.slice(eq + 1), where) };
  }
  return out;
}

/**
 * SOCIALPUB_SANDBOX_FAULTS: a list of `[platform:]kind=share`, e.g.
 * `5xx=0.05,429=2%,twitter:unanswered=1,threads:timeout=0.1`. Kinds: `5xx` (or
 * `server_error`), `429` (or `rate_limited`), `timeout`, `reset`, `unanswered`; `latency`
 * takes a range (`threads:latency=200-400`). No platform: every platform (`all`).
 */
export function parseSandboxFaultsList(text: string, where = 'SOCIALPUB_SANDBOX_FAULTS'): SandboxFaults {
  const out: SandboxFaults = {};
  for (const item of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const eq = item.indexOf('=');
    if (eq < 0) throw new Error(`${where}: ${JSON.stringify(item)} must be [platform:]kind=share`);
    const left = item.slice(0, eq).trim().toLowerCase();
    const value = item.slice(eq + 1);
    const colon = left.indexOf(':');
    const scope = colon < 0 ? 'all' : scopeOf(left.slice(0, colon), where);
    const kindName = colon < 0 ? left : left.slice(colon + 1);
    const spec = { ...out[scope] };
    if (kindName === 'latency' || kindName === 'latency_ms') spec.latency_ms = parseLatencyRange(value, where);
    else {
      const kind = SANDBOX_FAULT_SHORT_NAMES[kindName];
      if (!kind) throw new Error(`${where}: unknown fault ${JSON.stringify(kindName)} (5xx, 429, timeout, reset, unanswered, latency)`);
      spec[kind] = parseShare(value, where);
    }
    out[scope] = spec;
  }
  const checked = SandboxFaultsSchema.safeParse(out);
  if (!checked.success) throw new Error(`${where}: ${checked.error.issues.map((i) => i.message).join('; ')}`);
  return checked.data;
}

/** `base` with `over`'s scopes laid over it field by field (a platform's fields from `over` win). */
export function mergeSandboxFaults(base: SandboxFaults, over: SandboxFaults): SandboxFaults {
  const out: SandboxFaults = { ...base };
  for (const [scope, spec] of Object.entries(over) as [SandboxFaultScope, SandboxFaultSpec][]) out[scope] = { ...out[scope], ...spec };
  return out;
}

/** What one call to `platform` meets: `all` then the platform's own, from each layer in order (later wins, field by field). */
export function effectiveSandboxFault(platform: Platform | null, ...layers: SandboxFaults[]): SandboxFaultSpec {
  let out: SandboxFaultSpec = {};
  for (const layer of layers) {
    out = { ...out, ...layer.all };
    if (platform) out = { ...out, ...layer[platform] };
  }
  return out;
}
