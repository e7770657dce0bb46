import { PLATFORM_OPTION_SCHEMAS, type PlatformOptions } from '@socialpub/core';
import type { z } from 'zod';
import { UsageError } from './errors';

const SHAPE = 'youtube.title="My video"';

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
}
const defOf = (field: z.ZodType) => (field as unknown as { def: ZodDef }).def;

/** An option field with `optional` unwrapped. */
function unwrap(field: z.ZodType): z.ZodType {
  const def = defOf(field);
  return def.type === 'optional' && def.innerType ? unwrap(def.innerType) : field;
}

/** The zod type name of an option field (optional unwrapped): boolean, number, array, string, enum, union, object. */
function kindOf(field: z.ZodType): string {
  const def = defOf(field);
  return def.type === 'optional' && def.innerType ? kindOf(def.innerType) : def.type;
}

/** A list field's element kind (`object` for Instagram's user_tags). */
function elementKindOf(field: z.ZodType): string | null {
  const def = defOf(field);
  if (def.type === 'optional' && def.innerType) return elementKindOf(def.innerType);
  return def.type === 'array' && def.element ? kindOf(def.element) : null;
}

function json(key: string, text: string, example: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`--option ${key} takes JSON here, e.g. ${key}='${example}'`);
  }
}

const TAG_EXAMPLE = '[{"username":"natgeo","x":0.5,"y":0.5}]';

/**
 * One `--option` value as its field's type: true/false, a whole number, a comma-separated
 * list (or a JSON array), JSON for lists of objects and objects, a JSON array or text for a
 * field that takes either (Instagram's alt_text), text otherwise.
 */
function typed(key: string, field: z.ZodType, text: string): unknown {
  const kind = kindOf(field);
  const trimmed = text.trim();
  if (kind === 'object') return json(key, text, '{"…":"…"}');
  if (kind === 'array' && (trimmed.startsWith('[') || elementKindOf(field) === 'object')) return json(key, text, elementKindOf(field) === 'object' ? TAG_EXAMPLE : '["a","b"]');
  if (kind === 'union' && trimmed.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  if (kind === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true';
    throw new UsageError(`--option ${key} takes true or false, not "${text}"`);
  }
  if (kind === 'number') {
    if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`--option ${key} takes a whole number, not "${text}"`);
    return Number(text);
  }
  if (kind === 'array') return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
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
    // A nested option (twitter.poll.options=…) walks into its object, one name per dot; a whole object is JSON.
    let shape = schema.shape as Record<string, z.ZodType>;
    let into = (out[platform] ??= {});
    const names = name.split('.');
    for (const [i, n] of names.entries()) {
      const field = shape[n];
      const where = [platform, ...names.slice(0, i)].join('.');
      if (!field) throw new UsageError(`--option ${key}: ${where} has no option "${n}" (options: ${Object.keys(shape).join(', ')})`);
      if (i === names.length - 1) {
        into[n] = typed(key, field, v.slice(eq + 1));
      } else {
        const inner = unwrap(field);
        if (defOf(inner).type !== 'object') throw new UsageError(`--option ${key}: ${where}.${n} has no fields`);
        shape = (inner as z.ZodObject).shape as Record<string, z.ZodType>;
        into = (into[n] ??= {}) as Record<string, unknown>;
      }
    }
  }
  return out as PlatformOptions;
}
