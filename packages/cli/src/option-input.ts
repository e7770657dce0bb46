import { PLATFORM_OPTION_SCHEMAS, type PlatformOptions } from '@socialpub/core';
import type { z } from 'zod';
import { UsageError } from './errors';

const SHAPE = 'youtube.title="My video"';

/** An option field with `optional` unwrapped. */
function unwrap(field: z.ZodType): z.ZodType {
  const def = (field as unknown as { def: { type: string; innerType?: z.ZodType } }).def;
  return def.type === 'optional' && def.innerType ? unwrap(def.innerType) : field;
}

/** The zod type name of an option field (optional unwrapped): boolean, number, array, string, enum, object. */
function kindOf(field: z.ZodType): string {
  return (unwrap(field) as unknown as { def: { type: string } }).def.type;
}

/** A list: a JSON array of strings (for items that contain commas), else comma-separated. */
function list(key: string, text: string): string[] {
  if (text.trimStart().startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new UsageError(`--option ${key}: "${text}" is not a JSON array (write a,b,c or ["a","b,c"])`);
    }
    if (!Array.isArray(parsed) || parsed.some((x) => typeof x !== 'string')) throw new UsageError(`--option ${key} takes a list of texts: a,b,c or ["a","b,c"]`);
    return parsed as string[];
  }
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** One `--option` value as its field's type: true/false, a whole number, a comma-separated list, or text. */
function typed(key: string, kind: string, text: string): unknown {
  if (kind === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
    throw new UsageError(`--option ${key} takes true or false, not "${text}"`);
  }
  if (kind === 'number') {
    if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`--option ${key} takes a whole number, not "${text}"`);
    return Number(text);
  }
  if (kind === 'array') return list(key, text);
  return text;
}

/**
 * `--option platform.field=value` (repeatable) as the request's platform_options, each value
 * typed from the field's core schema. Unknown platforms or fields are usage errors that list
 * what exists; the values' own rules are the daemon's to check (the same 400 as any client).
 */
export function parseOptionFlags(values: readonly string[], platforms: readonly string[]): PlatformOptions {
  const out: Record<string, Record<string, unknown>> = {};
  for (const v of values) {
    const eq = v.indexOf('=');
    const key = eq > 0 ? v.slice(0, eq).trim() : '';
    const dot = key.indexOf('.');
    if (eq <= 0 || dot <= 0 || dot === key.length - 1) throw new UsageError(`--option "${v}" must look like ${SHAPE}`);
    const platform = key.slice(0, dot);
    const name = key.slice(dot + 1);
    const schema = (PLATFORM_OPTION_SCHEMAS as Record<string, z.ZodObject | undefined>)[platform];
    if (!schema) throw new UsageError(`--option ${key}: ${platform} has no options (platforms with options: ${Object.keys(PLATFORM_OPTION_SCHEMAS).join(', ')})`);
    if (!platforms.includes(platform)) throw new UsageError(`--option ${key}: ${platform} is not among the chosen platforms`);
    // A nested option (twitter.poll.options=…) walks into its object, one name per dot.
    let shape = schema.shape as Record<string, z.ZodType>;
    let into = (out[platform] ??= {});
    const names = name.split('.');
    for (const [i, n] of names.entries()) {
      const field = shape[n];
      const where = [platform, ...names.slice(0, i)].join('.');
      if (!field) throw new UsageError(`--option ${key}: ${where} has no option "${n}" (options: ${Object.keys(shape).join(', ')})`);
      const kind = kindOf(field);
      if (i === names.length - 1) {
        if (kind === 'object') throw new UsageError(`--option ${key} is a group: give its fields (${Object.keys((unwrap(field) as z.ZodObject).shape).map((f) => `${key}.${f}`).join(', ')})`);
        into[n] = typed(key, kind, v.slice(eq + 1));
      } else {
        if (kind !== 'object') throw new UsageError(`--option ${key}: ${where}.${n} has no fields`);
        shape = (unwrap(field) as z.ZodObject).shape as Record<string, z.ZodType>;
        into = (into[n] ??= {}) as Record<string, unknown>;
      }
    }
  }
  return out as PlatformOptions;
}
